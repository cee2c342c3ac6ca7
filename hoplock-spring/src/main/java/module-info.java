/**
 * hoplock for plain Spring: {@code @LeaderOnly}, {@code @WithLock} and ownership gates, fencing helpers and the
 * leader-aware scheduling they need ({@link dev.hoplock.spring} and its sub-packages).
 *
 * <p>Exports the API packages only; {@code dev.hoplock.spring.internal.gate} is this module's own. The module is open
 * (every package readable by reflection, none exported by it) because Spring's proxies and bean post-processors read
 * these classes reflectively.
 */
open module dev.hoplock.spring {
    requires transitive dev.hoplock.core;
    requires transitive spring.aop;
    requires transitive spring.beans;
    requires transitive spring.context;
    requires transitive spring.core;
    requires spring.expression;
    requires java.sql;
    requires static spring.jdbc;
    requires static spring.tx;
    requires static dev.hoplock.jdbc;
    requires static micrometer.core;
    // Reactive (Mono/Flux) and Kotlin suspend gates: only when the application has Reactor.
    requires static reactor.core;
    requires static org.reactivestreams;
    requires transitive micrometer.observation;
    requires micrometer.commons;
    requires org.slf4j;

    exports dev.hoplock.spring;
    exports dev.hoplock.spring.fencing;
    exports dev.hoplock.spring.leader;
    exports dev.hoplock.spring.lock;
    exports dev.hoplock.spring.observation;
    exports dev.hoplock.spring.ownership;
}
