package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.lock.WhenLockHeld;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

import java.time.Duration;

/**
 * The settings of named locks, {@code hoplock.locks.*}: the {@code Locks} bean and {@code @WithLock}, in the same store
 * as the elections; owned by {@link HoplockLocksAutoConfiguration}.
 */
@ConfigurationProperties("hoplock.locks")
public class LockProperties {

    /**
     * The owner id written into every lock record this instance takes. Must be unique per process. Default: one id
     * per process (host:pid:random), the same for every Locks instance of the process.
     */
    private @Nullable String owner;

    /** The prefix of every lock's record key: the lock "report" is stored under "locks/report" by default. */
    private String keyPrefix = "locks/";

    /** The most each request to the store may take. */
    private Duration requestTimeout = Duration.ofSeconds(5);

    /** How often a blocking acquire retries, and a failed keep-alive renewal is retried. */
    private Duration pollInterval = Duration.ofSeconds(1);

    /**
     * What a @WithLock call does when its lock is held elsewhere, unless the annotation says otherwise: skip
     * (return null, an empty Optional, collection, map, stream or array) or throw (LockNotTakenException).
     */
    private WhenLockHeld whenHeld = WhenLockHeld.SKIP;

    /**
     * The fair mode's turn window, for every @WithLock that does not set fairTurn and every call of the Locks bean: 0
     * (the default mode, which promises no fairness: the instance whose calls come first, or that ran last, may win
     * every time) or a duration up to 7 days. With a window, an instance whose hold of a lock ended less than the
     * window ago lets the first call that finds the lock free in a given version go by, so that another instance
     * calling meanwhile takes it. About the interval of the calls times the number of instances less one.
     */
    private Duration fairTurn = Duration.ZERO;

    public @Nullable String getOwner() {
        return owner;
    }

    public void setOwner(@Nullable String owner) {
        this.owner = owner;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    public Duration getPollInterval() {
        return pollInterval;
    }

    public void setPollInterval(Duration pollInterval) {
        this.pollInterval = pollInterval;
    }

    public Duration getFairTurn() {
        return fairTurn;
    }

    public void setFairTurn(Duration fairTurn) {
        this.fairTurn = fairTurn;
    }

    public WhenLockHeld getWhenHeld() {
        return whenHeld;
    }

    public void setWhenHeld(WhenLockHeld whenHeld) {
        this.whenHeld = whenHeld;
    }
}
