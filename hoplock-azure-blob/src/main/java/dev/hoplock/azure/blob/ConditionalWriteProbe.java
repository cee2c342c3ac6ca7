package dev.hoplock.azure.blob;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoreCapabilities.Support;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Checks, on a fresh side key, that the store honours the conditional requests of the {@link Backend} contract, as
 * hoplock-s3's probe does for S3: a store or proxy that ignores {@code If-None-Match} / {@code If-Match} lets two
 * leaders hold one lease at the same time.
 *
 * <p>{@link #check()} writes under the lease key {@value #PROBE_DIRECTORY}{@code /<random>} (the blob
 * {@code <prefix>.hoplock-probe/<random>}) and checks, in this order: a create ({@code If-None-Match: *}) succeeds and a
 * second create is refused (conditional create); a swap ({@code If-Match}) with the current ETag succeeds with a new
 * ETag, a swap with the stale ETag is refused, and a swap of a blob that does not exist is refused (conditional swap);
 * a delete with the stale ETag is refused and leaves the blob unchanged (conditional delete). Then it deletes the
 * side blobs (also after a failed check; a failed clean-up is logged, not thrown).
 *
 * <p>Guarantees: the report says VERIFIED for each capability whose checks all held, NOT_SUPPORTED for the first that
 * failed (with what the store did) and UNKNOWN for those the probe did not reach. A store that could not be asked is
 * reported by the backend's own exception. Sequential requests cannot show a store whose checks are correct one at a
 * time but not atomic under concurrent writers; the probe does not claim to.
 */
final class ConditionalWriteProbe {

    /** The lease-key directory the probe writes under. */
    static final String PROBE_DIRECTORY = ".hoplock-probe";

    private static final Logger log = LoggerFactory.getLogger(ConditionalWriteProbe.class);

    private final Backend backend;
    private final Duration callTimeout;

    ConditionalWriteProbe(Backend backend, Duration callTimeout) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.callTimeout = Objects.requireNonNull(callTimeout, "callTimeout");
    }

    /**
     * What the probe found.
     *
     * @param capabilities the report
     * @param failure      the exception for the first failed check (kind CONDITIONAL_WRITES_NOT_SUPPORTED), or null
     */
    record Verdict(StoreCapabilities capabilities, @Nullable BackendException failure) {

        /** True when the conditional create and swap work, which every elector needs. */
        boolean createAndSwapVerified() {
            return capabilities.support(Capability.CONDITIONAL_CREATE) == Support.VERIFIED
                    && capabilities.support(Capability.CONDITIONAL_SWAP) == Support.VERIFIED;
        }
    }

    /**
     * Runs the checks on a new random side key and removes it afterwards.
     *
     * @throws BackendException when the store could not be asked (never for a failed check)
     */
    Verdict check() throws BackendException {
        String nonce = UUID.randomUUID().toString();
        String key = PROBE_DIRECTORY + "/" + nonce;
        String missingKey = key + "-never-written";
        try {
            Handle first = expectWritten(backend.write(key, Handle.NONE, body(nonce, 1), callTimeout),
                    Capability.CONDITIONAL_CREATE, key, "refused to create a new blob with If-None-Match: *");
            expectRefused(backend.write(key, Handle.NONE, body(nonce, 2), callTimeout), Capability.CONDITIONAL_CREATE,
                    key, "accepted a second Put Blob with If-None-Match: * although the blob already existed");
            Handle second = expectWritten(backend.write(key, first, body(nonce, 3), callTimeout),
                    Capability.CONDITIONAL_SWAP, key, "refused a Put Blob with If-Match and the blob's current ETag");
            if (second.equals(first)) {
                throw failed(Capability.CONDITIONAL_SWAP, key, "returned the same ETag for a new version, so a stale"
                        + " ETag cannot be told from a current one");
            }
            expectRefused(backend.write(key, first, body(nonce, 4), callTimeout), Capability.CONDITIONAL_SWAP, key,
                    "accepted a Put Blob with If-Match and a stale ETag");
            expectRefused(backend.write(missingKey, second, body(nonce, 5), callTimeout), Capability.CONDITIONAL_SWAP,
                    missingKey, "created a blob on a Put Blob with If-Match although the blob did not exist");
            DeleteResult staleDelete = backend.delete(key, first, callTimeout);
            Optional<StoredObject> kept = backend.read(key, callTimeout);
            if (staleDelete != DeleteResult.PRECONDITION_FAILED || kept.isEmpty()
                    || !kept.get().handle().equals(second)) {
                throw failed(Capability.CONDITIONAL_DELETE, key, "answered " + staleDelete + " to a Delete Blob with"
                        + " If-Match and a stale ETag and " + (kept.isEmpty() ? "removed the blob"
                        : kept.get().handle().equals(second) ? "kept it" : "changed it"));
            }
            log.info("{} honours conditional writes (If-None-Match and If-Match on Put Blob, If-Match on Delete Blob)",
                    backend.describe());
            return new Verdict(report(null, ""), null);
        } catch (CheckFailed e) {
            return e.verdict;
        } finally {
            cleanUp(key);
            cleanUp(missingKey);
        }
    }

    /** VERIFIED before {@code failed}, NOT_SUPPORTED for it (with {@code detail}), UNKNOWN after. */
    private StoreCapabilities report(@Nullable Capability failed, String detail) {
        StoreCapabilities.Builder builder = StoreCapabilities.builder(backend.describe());
        for (Capability capability : Capability.values()) {
            Support support = failed == null || capability.compareTo(failed) < 0 ? Support.VERIFIED
                    : capability == failed ? Support.NOT_SUPPORTED : Support.UNKNOWN;
            builder.set(capability, support, capability == failed ? detail : "");
        }
        return builder.build();
    }

    private Handle expectWritten(WriteResult result, Capability capability, String key, String failure)
            throws CheckFailed {
        if (result instanceof WriteResult.Written written) {
            return written.handle();
        }
        throw failed(capability, key, failure + " (" + ((WriteResult.Refused) result).reason() + ")");
    }

    private void expectRefused(WriteResult result, Capability capability, String key, String failure)
            throws CheckFailed {
        if (!(result instanceof WriteResult.Refused)) {
            throw failed(capability, key, failure);
        }
    }

    private CheckFailed failed(Capability capability, String key, String failure) {
        String detail = "on the probe key " + key + " it " + failure;
        BackendException exception = new BackendException(BackendException.Kind.CONDITIONAL_WRITES_NOT_SUPPORTED,
                backend.describe() + " does not honour conditional writes: " + detail + ". With this store two"
                + " leaders could coexist (both holding the same lease at once), so hoplock refuses it. Connect"
                + " hoplock to Azure Blob Storage itself (a proxy or emulator that drops If-Match / If-None-Match"
                + " breaks it); if you are certain this one is safe and only the probe is wrong, switch the probe off"
                + " with AzureBlobBackendBuilder.verifyConditionalWrites(false).");
        return new CheckFailed(new Verdict(report(capability, detail), exception));
    }

    /** Leaves the checks at the first one that failed; never escapes {@link #check()}. */
    private static final class CheckFailed extends Exception {
        private static final long serialVersionUID = 1L;
        private final transient Verdict verdict;

        CheckFailed(Verdict verdict) {
            super(null, null, false, false);
            this.verdict = verdict;
        }
    }

    /** Removes the side key if it exists, whatever its ETag; never throws. */
    private void cleanUp(String key) {
        try {
            Optional<StoredObject> left = backend.read(key, callTimeout);
            if (left.isPresent() && backend.delete(key, left.get().handle(), callTimeout) != DeleteResult.DELETED) {
                log.warn("the probe blob {} of {} changed while it was being removed; it is safe to delete by hand",
                        key, backend.describe());
            }
        } catch (BackendException | RuntimeException e) {
            log.debug("could not remove the probe blob {} of {}: {}; it is safe to delete by hand", key,
                    backend.describe(), e.getMessage());
        }
    }

    private static byte[] body(String nonce, int step) {
        return ("{\"hoplock_probe\":\"" + nonce + "\",\"step\":" + step + "}").getBytes(StandardCharsets.UTF_8);
    }
}
