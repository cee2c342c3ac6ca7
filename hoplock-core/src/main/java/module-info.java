/**
 * hoplock's core: the elector ({@link dev.hoplock.core.election}), named locks ({@link dev.hoplock.core.lock}) and
 * per-key ownership ({@link dev.hoplock.core.ownership}) over one store SPI ({@link dev.hoplock.core.backend} with
 * {@link dev.hoplock.core.record}, {@link dev.hoplock.core.time}, {@link dev.hoplock.core.fencing} and
 * {@link dev.hoplock.core.json}), the value types they share ({@link dev.hoplock.core}), and the operator's inspection
 * and release of lease records ({@link dev.hoplock.core.operations}).
 *
 * <p>Exports only those API packages. The lease rules and the engine runtime the primitives share
 * ({@code dev.hoplock.core.internal.lease}, {@code dev.hoplock.core.internal.runtime}) are not exported, to anyone:
 * no other hoplock module uses them, and a test ({@code InternalPackagesStayInternalTest}) fails the build when one
 * starts to.
 */
module dev.hoplock.core {
    requires transitive org.jspecify;
    requires org.slf4j;

    exports dev.hoplock.core;
    exports dev.hoplock.core.backend;
    exports dev.hoplock.core.election;
    exports dev.hoplock.core.fencing;
    exports dev.hoplock.core.json;
    exports dev.hoplock.core.lock;
    exports dev.hoplock.core.operations;
    exports dev.hoplock.core.ownership;
    exports dev.hoplock.core.record;
    exports dev.hoplock.core.time;
}
