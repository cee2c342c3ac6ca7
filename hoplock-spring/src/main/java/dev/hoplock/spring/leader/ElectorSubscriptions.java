package dev.hoplock.spring.leader;

import org.slf4j.Logger;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The listeners one bean added to the electors, removed together when the bean is destroyed. A removal that fails is
 * logged at debug level and does not stop the others. Thread-safe.
 */
final class ElectorSubscriptions {

    private final List<AutoCloseable> open = new CopyOnWriteArrayList<>();
    private final Logger log;
    private final String what;

    /**
     * @param log  the owner's logger
     * @param what what the subscriptions are, for the log, for example {@code "an event subscription"}
     */
    ElectorSubscriptions(Logger log, String what) {
        this.log = log;
        this.what = what;
    }

    /** Keeps {@code subscription} (what {@code Elector.addListener} returned) for {@link #closeAll()}. */
    void add(AutoCloseable subscription) {
        open.add(subscription);
    }

    /** Removes every listener added. */
    void closeAll() {
        for (AutoCloseable subscription : open) {
            try {
                subscription.close();
            } catch (Exception e) {
                log.debug("hoplock: closing {} failed", what, e);
            }
        }
    }
}
