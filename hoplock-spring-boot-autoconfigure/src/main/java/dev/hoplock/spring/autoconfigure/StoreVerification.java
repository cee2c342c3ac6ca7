package dev.hoplock.spring.autoconfigure;

import dev.hoplock.spring.BackendVerifier;

import java.time.Duration;
import java.util.Optional;

/**
 * Where the verification of the store ({@link BackendVerifier}) stands, for the health contributor and the endpoint.
 *
 * <p>Guarantees: moves only forward, from {@link State#NOT_STARTED} or {@link State#PENDING} to exactly one of
 * {@link State#PASSED}, {@link State#NOT_REQUIRED} or {@link State#REFUSED}; reads are lock-free and consistent
 * per call to {@link #snapshot()}. Messages come from backends, which never put secrets in them.
 */
public final class StoreVerification {

    /** The states of the verification. */
    public enum State {
        /** The application has not started the electors yet. */
        NOT_STARTED,
        /** No verifier applies (or the probe is switched off): the electors start at once. */
        NOT_REQUIRED,
        /** The verification runs, or the store could not be asked yet and it is retried. */
        PENDING,
        /** The store passed; the electors started. */
        PASSED,
        /** The store accepted a write it must refuse; the electors never start on it. */
        REFUSED
    }

    /**
     * A consistent view.
     *
     * @param state     the state
     * @param message   why it is refused, or the last failure while pending; empty otherwise
     * @param sinceNanos {@link System#nanoTime()} when the state was entered
     */
    public record Snapshot(State state, Optional<String> message, long sinceNanos) {

        /** How long the verification has been in this state. */
        public Duration age() {
            return Duration.ofNanos(Math.max(0, System.nanoTime() - sinceNanos));
        }
    }

    private volatile Snapshot current = new Snapshot(State.NOT_STARTED, Optional.empty(), System.nanoTime());

    /** The current state and message. */
    public Snapshot snapshot() {
        return current;
    }

    synchronized void pending(String lastFailure) {
        if (isFinal()) {
            return;
        }
        long since = current.state() == State.PENDING ? current.sinceNanos() : System.nanoTime();
        current = new Snapshot(State.PENDING, Optional.ofNullable(lastFailure), since);
    }

    synchronized void passed() {
        finish(State.PASSED, null);
    }

    synchronized void notRequired() {
        finish(State.NOT_REQUIRED, null);
    }

    synchronized void refused(String message) {
        finish(State.REFUSED, message);
    }

    private void finish(State state, String message) {
        if (!isFinal()) {
            current = new Snapshot(state, Optional.ofNullable(message), System.nanoTime());
        }
    }

    private boolean isFinal() {
        State state = current.state();
        return state == State.PASSED || state == State.NOT_REQUIRED || state == State.REFUSED;
    }
}
