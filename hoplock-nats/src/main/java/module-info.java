/**
 * The NATS JetStream key-value store for hoplock ({@link dev.hoplock.nats}). Exports its one package; it reads
 * hoplock-core's API only.
 */
module dev.hoplock.nats {
    requires transitive dev.hoplock.core;
    requires transitive io.nats.jnats;
    requires org.slf4j;

    exports dev.hoplock.nats;
}
