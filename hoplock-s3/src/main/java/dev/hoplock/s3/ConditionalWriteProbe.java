package dev.hoplock.s3;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Checks, on a fresh side key, that a store refuses the writes a compare-and-swap store must refuse, because a store
 * that ignores {@code If-None-Match} / {@code If-Match} lets two leaders hold one lease at the same time.
 *
 * <p>{@link #run()} writes under the lease key {@value #PROBE_DIRECTORY}{@code /<random>} (with an S3 backend: the
 * object {@code <prefix>.hoplock-probe/<random>}) and checks, in this order:
 * <ol>
 *   <li>a create ({@code If-None-Match: *}) of the new key succeeds;</li>
 *   <li>a second create of the now existing key is refused;</li>
 *   <li>a swap ({@code If-Match}) with the current handle succeeds and yields a new handle;</li>
 *   <li>a swap with the stale first handle is refused;</li>
 *   <li>a delete with the stale handle is refused and the object is still there, unchanged;</li>
 * </ol>
 * then deletes the side key with its current handle (also when a check failed; a failed clean-up is logged, not
 * thrown).
 *
 * <p>Guarantees: returns normally only if every check held. A store that accepted a write it should have refused
 * (or refused one it should have accepted) is reported as a {@link BackendException} of kind
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

    /** The checks of the probe, in the order it runs them. */
    enum Check {
        CREATE, SECOND_CREATE_REFUSED, SWAP_WITH_CURRENT_HANDLE, NEW_HANDLE_ON_SWAP, STALE_SWAP_REFUSED,
        STALE_DELETE_REFUSED, OBJECT_KEPT_AFTER_STALE_DELETE
    }

    /**
     * The outcome of a probe that could ask the store: passed ({@code failedCheck} and {@code failure} null), or the
     * first check that failed and the exception {@link #run()} throws for it.
     */
    record Verdict(Check failedCheck, BackendException failure) {
        static final Verdict PASSED = new Verdict(null, null);

        boolean passed() {
            return failedCheck == null;
        }
    }

    /**
     * Runs the checks like {@link #run()} but returns which one failed instead of throwing, so that a backend can
     * react to one particular failure (see {@link S3Backend#verifyConditionalWrites()}).
     *
     * @throws BackendException when the store could not be asked (never for a failed check)
     */
    Verdict check() throws BackendException {
        String nonce = UUID.randomUUID().toString();
        String key = PROBE_DIRECTORY + "/" + nonce;
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
                        + " stale ETag cannot be told from a current one");
            }

            expectRefused(backend.write(key, first, body(nonce, 4), callTimeout), key, Check.STALE_SWAP_REFUSED,
                    "accepted a PUT with If-Match and a stale ETag");

            DeleteResult staleDelete = backend.delete(key, first, callTimeout);
            if (staleDelete != DeleteResult.PRECONDITION_FAILED) {
                throw failed(key, Check.STALE_DELETE_REFUSED, "answered " + staleDelete + " to a DELETE with"
                        + " If-Match and a stale ETag, which it must refuse with 412");
            }
            Optional<StoredObject> kept = backend.read(key, callTimeout);
            if (kept.isEmpty() || !kept.get().handle().equals(second)) {
                throw failed(key, Check.OBJECT_KEPT_AFTER_STALE_DELETE,
                        "changed or removed the object on a DELETE with If-Match and a stale ETag");
            }
            log.info("{} honours conditional writes (If-None-Match and If-Match on PUT, If-Match on DELETE)",
                    backend.describe());
            return Verdict.PASSED;
        } catch (CheckFailed e) {
            return e.verdict;
        } finally {
            cleanUp(key);
        }
    }

    private Handle expectWritten(WriteResult result, String key, Check check, String failure) throws CheckFailed {
        if (result instanceof WriteResult.Written written) {
            return written.handle();
        }
        throw failed(key, check, failure + " (" + ((WriteResult.Refused) result).reason() + ")");
    }

    private void expectRefused(WriteResult result, String key, Check check, String failure) throws CheckFailed {
        if (!(result instanceof WriteResult.Refused)) {
            throw failed(key, check, failure);
        }
    }

    private CheckFailed failed(String key, Check check, String failure) {
        return new CheckFailed(new Verdict(check, unsupported(key, failure)));
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

    private BackendException unsupported(String key, String failure) {
        return new BackendException(BackendException.Kind.CONDITIONAL_WRITES_NOT_SUPPORTED, backend.describe()
                + " does not honour conditional writes: on the probe key " + key + " it " + failure + ". With this"
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
