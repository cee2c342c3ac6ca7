/**
 * The Redis store for hoplock ({@link dev.hoplock.redis}), over Lettuce. Exports its one package; it reads
 * hoplock-core's API only.
 */
module dev.hoplock.redis {
    requires transitive dev.hoplock.core;
    requires transitive lettuce.core;
    requires reactor.core;
    requires org.slf4j;

    exports dev.hoplock.redis;
}
