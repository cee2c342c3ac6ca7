package dev.hoplock.s3;

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
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Checks, on a fresh side key, which conditional requests a store honours, because a store that ignores
 * {@code If-None-Match} / {@code If-Match} lets two leaders hold one lease at the same time.
 *
 * <p>{@link #run()} writes under the lease key {@value #PROBE_DIRECTORY}{@code /<random>} (with an S3 backend: the
 * object {@code <prefix>.hoplock-probe/<random>}) and checks, in this order:
 * <ol>
 *   <li>conditional create: a create ({@code If-None-Match: *}) of the new key succeeds, and a second create of the
 *       now existing key is refused;</li>
 *   <li>conditional swap: a swap ({@code If-Match}) with the current handle succeeds and yields a new handle, a swap
 *       with the stale first handle is refused, and a swap of a key that does not exist is refused (and how: 404 or,
 *       as Ceph RGW answers, 412);</li>
 *   <li>conditional delete: a delete with the stale handle is refused and the object is still there, unchanged;</li>
 * </ol>
 * then deletes the side keys with their current handles (also when a check failed; a failed clean-up is logged, not
 * thrown). A capability whose check failed is {@link Support#NOT_SUPPORTED}; the later ones, which the probe did not
 * reach, are {@link Support#UNKNOWN}.
 *
 * <p>Guarantees: {@link #run()} returns normally only if every check held. A store that accepted a write it should
 * have refused (or refused one it should have accepted) is reported as a {@link BackendException} of kind
 * {@link BackendException.Kind#CONDITIONAL_WRITES_NOT_SUPPORTED} whose message names the store and its endpoint,
 * the check that failed, the risk, and how to switch the probe off. A store that could not be asked (unreachable,
 * access denied, missing bucket) is reported with the backend's own exception. Sequential requests cannot show a
 * store whose checks are correct one at a time but not atomic under concurrent writers; the probe does not claim to.
 */
public final class ConditionalWriteProbe {

    /** The lease-key directory the probe writes under. */
    public static final String PROBE_DIRECTORY = ".hoplock-probe";

    private static final Logger log = LoggerFactory.getLogger(ConditionalWriteProbe.class);

    private final Backend backend;
    private final Duration callTimeout;

    /**
     * @param backend     the store to probe
     * @param callTimeout the timeout of each of the probe's requests
     */
    public ConditionalWriteProbe(Backend backend, Duration callTimeout) {
        this.backend = Objects.requireNonNull(backend, "backend");
        this.callTimeout = Objects.requireNonNull(callTimeout, "callTimeout");
    }

    /**
     * Runs the checks on a new random side key and removes it afterwards.
     *
     * @throws BackendException {@link BackendException.Kind#CONDITIONAL_WRITES_NOT_SUPPORTED} when a check failed;
     *                          any other kind when the store could not be asked
     */
    public void run() throws BackendException {
        Verdict verdict = check();
        if (verdict.failure() != null) {
            throw verdict.failure();
        }
    }

    /** The checks of the probe, in the order it runs them, each with the capability it shows. */
    enum Check {
        CREATE(Capability.CONDITIONAL_CREATE),
        SECOND_CREATE_REFUSED(Capability.CONDITIONAL_CREATE),
        SWAP_WITH_CURRENT_HANDLE(Capability.CONDITIONAL_SWAP),
        NEW_HANDLE_ON_SWAP(Capability.CONDITIONAL_SWAP),
        STALE_SWAP_REFUSED(Capability.CONDITIONAL_SWAP),
        SWAP_OF_MISSING_KEY_REFUSED(Capability.CONDITIONAL_SWAP),
        STALE_DELETE_REFUSED(Capability.CONDITIONAL_DELETE),
        OBJECT_KEPT_AFTER_STALE_DELETE(Capability.CONDITIONAL_DELETE);

        private final Capability capability;

        Check(Capability capability) {
            this.capability = capability;
        }

        Capability capability() {
            return capability;
        }
    }

    /**
     * The outcome of a probe that could ask the store.
     *
     * @param failedCheck    the first check that failed, or null when all passed
     * @param failure        the exception {@link #run()} throws for it, or null
     * @param support        the support of each capability: VERIFIED up to the failed one, NOT_SUPPORTED for it,
     *                       UNKNOWN after it
     * @param detail         what the store did on the failed check, or ""
     * @param missingKeySwap how the store refused a swap of a missing key ({@code NOT_FOUND} for 404,
     *                       {@code PRECONDITION_FAILED} for 412), or null when the probe did not get that far
     */
    record Verdict(@Nullable Check failedCheck, @Nullable BackendException failure, Map<Capability, Support> support, String detail,
            WriteResult.@Nullable Refusal missingKeySwap) {

        /** True when the conditional create and swap work, which every elector needs. */
        boolean createAndSwapVerified() {
            return support.get(Capability.CONDITIONAL_CREATE) == Support.VERIFIED
                    && support.get(Capability.CONDITIONAL_SWAP) == Support.VERIFIED;
        }

        /** This verdict as a capability report for {@code store}, with the given handle form. */
        StoreCapabilities capabilities(String store, String handleForm) {
            StoreCapabilities.Builder builder = StoreCapabilities.builder(store).handleForm(handleForm);
            for (Capability capability : Capability.values()) {
                boolean failed = failedCheck != null && failedCheck.capability() == capability;
                builder.set(capability, Objects.requireNonNull(support.get(capability), "supportUpTo covers every capability"),
                        failed ? detail : "");
            }
            return builder.build();
        }
    }

    /**
     * Runs the checks like {@link #run()} but returns what held and what failed instead of throwing, so that a
     * backend can report capabilities and react to one particular failure (see {@link S3Backend#verify()}).
     *
     * @throws BackendException when the store could not be asked (never for a failed check)
     */
    Verdict check() throws BackendException {
        String nonce = UUID.randomUUID().toString();
        String key = PROBE_DIRECTORY + "/" + nonce;
        String missingKey = key + "-never-written";
        WriteResult.Refusal missingKeySwap = null;
        try {
            Handle first = expectWritten(backend.write(key, Handle.NONE, body(nonce, 1), callTimeout), key,
                    Check.CREATE, "refused to create a new object with If-None-Match: *");

            expectRefused(backend.write(key, Handle.NONE, body(nonce, 2), callTimeout), key,
                    Check.SECOND_CREATE_REFUSED,
                    "accepted a second PUT with If-None-Match: * although the object already existed");

            Handle second = expectWritten(backend.write(key, first, body(nonce, 3), callTimeout), key,
                    Check.SWAP_WITH_CURRENT_HANDLE, "refused a PUT with If-Match and the object's current ETag");
            if (second.equals(first)) {
                throw failed(key, Check.NEW_HANDLE_ON_SWAP, "returned the same ETag for different contents, so a"
                        + " stale ETag cannot be told from a current one", null);
            }

            expectRefused(backend.write(key, first, body(nonce, 4), callTimeout), key, Check.STALE_SWAP_REFUSED,
                    "accepted a PUT with If-Match and a stale ETag");

            missingKeySwap = expectRefused(backend.write(missingKey, second, body(nonce, 5), callTimeout),
                    missingKey, Check.SWAP_OF_MISSING_KEY_REFUSED,
                    "created an object on a PUT with If-Match although the key did not exist");

            DeleteResult staleDelete = backend.delete(key, first, callTimeout);
            if (staleDelete != DeleteResult.PRECONDITION_FAILED) {
                throw failed(key, Check.STALE_DELETE_REFUSED, "answered " + staleDelete + " to a DELETE with"
                        + " If-Match and a stale ETag, which it must refuse with 412", missingKeySwap);
            }
            Optional<StoredObject> kept = backend.read(key, callTimeout);
            if (kept.isEmpty() || !kept.get().handle().equals(second)) {
                throw failed(key, Check.OBJECT_KEPT_AFTER_STALE_DELETE,
                        "changed or removed the object on a DELETE with If-Match and a stale ETag", missingKeySwap);
            }
            log.info("{} honours conditional writes (If-None-Match and If-Match on PUT, If-Match on DELETE)",
                    backend.describe());
            return new Verdict(null, null, supportUpTo(null), "", missingKeySwap);
        } catch (CheckFailed e) {
            return e.verdict;
        } finally {
            cleanUp(key);
            cleanUp(missingKey);
        }
    }

    /** VERIFIED for the capabilities before the failed check's, NOT_SUPPORTED for its, UNKNOWN after. */
    private static Map<Capability, Support> supportUpTo(@Nullable Check failed) {
        Map<Capability, Support> support = new EnumMap<>(Capability.class);
        for (Capability capability : Capability.values()) {
            support.put(capability, failed == null || capability.compareTo(failed.capability()) < 0 ? Support.VERIFIED
                    : capability == failed.capability() ? Support.NOT_SUPPORTED : Support.UNKNOWN);
        }
        return support;
    }

    private Handle expectWritten(WriteResult result, String key, Check check, String failure) throws CheckFailed {
        if (result instanceof WriteResult.Written written) {
            return written.handle();
        }
        throw failed(key, check, failure + " (" + ((WriteResult.Refused) result).reason() + ")", null);
    }

    private WriteResult.Refusal expectRefused(WriteResult result, String key, Check check, String failure)
            throws CheckFailed {
        if (result instanceof WriteResult.Refused refused) {
            return refused.reason();
        }
        throw failed(key, check, failure, null);
    }

    private CheckFailed failed(String key, Check check, String failure, WriteResult.@Nullable Refusal missingKeySwap) {
        String detail = "on the probe key " + key + " it " + failure;
        return new CheckFailed(new Verdict(check, unsupported(detail), supportUpTo(check), detail, missingKeySwap));
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

    private BackendException unsupported(String detail) {
        return new BackendException(BackendException.Kind.CONDITIONAL_WRITES_NOT_SUPPORTED, backend.describe()
                + " does not honour conditional writes: " + detail + ". With this"
                + " store two leaders could coexist (both holding the same lease at once), so hoplock refuses it."
                + " Use a store with S3 conditional writes (If-None-Match and If-Match); if you are certain this one"
                + " is safe and only the probe is wrong, switch the probe off with"
                + " S3BackendBuilder.verifyConditionalWrites(false).");
    }

    /**
     * Removes the side key if it exists, whatever its handle. Never throws: when the store cannot even be read, the
     * probe's own failure already says why; when the object stays, a warning names it.
     */
    private void cleanUp(String key) {
        Optional<StoredObject> left;
        try {
            left = backend.read(key, callTimeout);
        } catch (BackendException | RuntimeException e) {
            log.debug("cannot read the probe object {} of {} to remove it: {}", key, backend.describe(),
                    e.getMessage());
            return;
        }
        if (left.isEmpty()) {
            return;
        }
        try {
            DeleteResult result = backend.delete(key, left.get().handle(), callTimeout);
            if (result == DeleteResult.PRECONDITION_FAILED) {
                log.warn("the probe object {} of {} changed while it was being removed; it is safe to delete by hand",
                        key, backend.describe());
            }
        } catch (BackendException | RuntimeException e) {
            log.warn("could not remove the probe object {} of {}: {}; it is safe to delete by hand", key,
                    backend.describe(), e.getMessage());
        }
    }

    private static byte[] body(String nonce, int step) {
        return ("{\"hoplock_probe\":\"" + nonce + "\",\"step\":" + step + "}").getBytes(StandardCharsets.UTF_8);
    }
}
