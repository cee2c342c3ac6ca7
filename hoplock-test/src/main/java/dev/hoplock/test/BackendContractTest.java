package dev.hoplock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import dev.hoplock.core.backend.WriteResult.Refusal;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The contract that every {@link Backend} must keep (see the {@link Backend} Javadoc), as an abstract JUnit 5 test
 * class. Extend it once per backend; every test here then runs against that backend.
 *
 * <pre>{@code
 * class MyBackendContractTest extends BackendContractTest {
 *     @Override
 *     protected Backend backend() {
 *         return new MyBackend(...);          // may return the same instance every time
 *     }
 *
 *     @Override
 *     protected void recreateContainer() {    // delete the store's container and create it again, empty
 *         ...                                 // (without it, the incarnation case is skipped)
 *     }
 *
 *     @Override
 *     protected int raceWriters() {           // optional: tune the races for a slow or throttled store
 *         return 8;
 *     }
 * }
 * }</pre>
 *
 * <p>What it checks: reads of missing keys, create-if-absent, compare-and-swap with current, stale and missing
 * handles, conditional delete, independence of keys (including keys that are prefixes of others and keys that
 * differ only in case), byte-exact round trips, key validation, and races in which {@link #raceWriters()} threads,
 * released together, compete for one key {@link #raceRounds()} times: exactly one must win every round and the
 * stored bytes must be the winner's; and that no handle from before a re-creation of the store's container
 * ({@link #recreateContainer()}) matches anything written after it. A round waits until every writer's thread is ready and then releases them all
 * at once through a latch (no sleeps); a call that throws fails the test, since a {@link BackendException} would
 * leave the outcome unknown.
 *
 * <p>Tests of a capability that {@link Backend#verify()} reports missing (for example the conditional-delete tests on
 * a store whose DELETE ignores the condition) are skipped by {@link #requireCapability}, with the reason in the
 * report; every other test runs.
 *
 * <p>Every test uses its own keys from {@link #newKey()} (a random segment under {@link #keyPrefix()}), so the
 * tests can share one store and need no cleanup between tests. {@link #recreateContainer()} empties the whole
 * container, so give the test class a container of its own (an index, a table, a prefix, a directory). Each test calls
 * {@link #backend()} once before it runs.
 *
 * <p>Every test method is declared here; the steps of the key, content, incarnation and race cases are in
 * package-private classes beside it ({@code KeyCases}, {@code ContentCases}, {@code IncarnationCase},
 * {@code ContractRaces}), which call this class's settings and helpers, so an override applies to them too.
 */
public abstract class BackendContractTest {

    private Backend store;

    /** The backend under test. Called once before each test; may return a shared instance. */
    protected abstract Backend backend() throws Exception;

    /** The timeout passed to every backend call. */
    protected Duration timeout() {
        return Duration.ofSeconds(30);
    }

    /** The first segments of every key the tests use; override to keep the tests inside a prefix you own. */
    protected String keyPrefix() {
        return "hoplock-contract";
    }

    /** A key no other test uses: {@link #keyPrefix()}, a random segment, and {@code lease}. */
    protected String newKey() {
        return keyPrefix() + "/" + UUID.randomUUID() + "/lease";
    }

    /** How many rounds each race runs. */
    protected int raceRounds() {
        return 20;
    }

    /** How many callers compete in each round of a race. */
    protected int raceWriters() {
        return 32;
    }

    /** The backend under test, as {@link #backend()} returned it for this test. */
    protected final Backend store() {
        return store;
    }

    @BeforeEach
    final void openBackend() throws Exception {
        store = backend();
        assertThat(store).as("backend()").isNotNull();
    }

    /**
     * Deletes the container of {@link #store()} (the index, the table, every object under the bucket prefix, the
     * directory, the map) and creates it again, empty, as an operator or an outside process could while the backend
     * runs: {@link #store()} stays the same instance and must go on working over the new container. Used by
     * {@link #aWriteConditionalOnAHandleFromAnEarlierIncarnationOfTheStoreNeverApplies()}.
     *
     * <p>The default skips that test, saying so in the report: override it for every store whose container can be
     * re-created under a running backend. Every store in this repository overrides it.
     */
    protected void recreateContainer() throws Exception {
        assumeTrue(false, () -> getClass().getSimpleName() + " does not override recreateContainer(), so the case of a"
                + " handle from an earlier incarnation of the store is not checked for " + store.describe());
    }

    /**
     * Skips the calling test, with the reason in the report, when the store lacks {@code capability}
     * ({@link Backend#verify()}): a store whose DELETE ignores the condition cannot pass the conditional-delete tests,
     * and every consumer that needs them refuses it ({@link StoreCapabilities#requireFor(boolean)}).
     */
    protected final void requireCapability(Capability capability) throws BackendException {
        StoreCapabilities capabilities = store.verify();
        assertThat(capabilities).as("verify()").isNotNull();
        assumeTrue(capabilities.has(capability), () -> store.describe() + " reports " + capability + " "
                + capabilities.support(capability) + " (" + capabilities.detail(capability) + "), so this test of it"
                + " does not apply; consumers that need it refuse this store");
    }

    // ---------------------------------------------------------------------------------------------- reads

    @Test
    void readOfMissingKeyIsEmpty() throws BackendException {
        assertThat(store.read(newKey(), timeout())).isEmpty();
    }

    @Test
    void describeIsNotBlank() {
        assertThat(store.describe()).isNotBlank();
    }

    // --------------------------------------------------------------------------------------------- create

    @Test
    void createWithNoneSucceedsAndReturnsRealHandle() throws BackendException {
        WriteResult result = store.write(newKey(), Handle.NONE, bytes("first"), timeout());

        assertThat(result).isInstanceOf(WriteResult.Written.class);
        Handle handle = ((WriteResult.Written) result).handle();
        assertThat(handle.isNone()).as("handle of a created object is Handle.NONE").isFalse();
        assertThat(handle.value()).isNotEmpty();
    }

    @Test
    void readReturnsWrittenBytesAndHandle() throws BackendException {
        String key = newKey();
        Handle handle = create(key, "first");

        StoredObject stored = read(key);

        assertThat(stored.content()).isEqualTo(bytes("first"));
        assertThat(stored.handle()).isEqualTo(handle);
        assertThat(read(key).handle()).as("handle of an unchanged object, read again").isEqualTo(handle);
    }

    @Test
    void createWithNoneOnExistingKeyIsRefusedAndKeepsContent() throws BackendException {
        String key = newKey();
        Handle handle = create(key, "first");

        assertThat(store.write(key, Handle.NONE, bytes("second"), timeout()))
                .isEqualTo(refused(Refusal.PRECONDITION_FAILED));
        assertStored(key, "first", handle);
    }

    // ------------------------------------------------------------------------------------ compare-and-swap

    @Test
    void casWithCurrentHandleSucceedsWithNewHandle() throws BackendException {
        String key = newKey();
        Handle first = create(key, "first");

        Handle second = written(store.write(key, first, bytes("second"), timeout()));

        assertThat(second).isNotEqualTo(first);
        assertThat(second.isNone()).isFalse();
        assertStored(key, "second", second);

        Handle third = written(store.write(key, second, bytes("third"), timeout()));
        assertThat(third).isNotEqualTo(second).isNotEqualTo(first);
        assertStored(key, "third", third);
    }

    @Test
    void casWithStaleHandleIsRefusedAndKeepsContent() throws BackendException {
        String key = newKey();
        Handle stale = create(key, "first");
        Handle current = written(store.write(key, stale, bytes("second"), timeout()));

        assertThat(store.write(key, stale, bytes("third"), timeout())).isEqualTo(refused(Refusal.PRECONDITION_FAILED));
        assertStored(key, "second", current);
    }

    @Test
    void casOnMissingKeyIsNotFound() throws BackendException {
        String key = newKey();
        Handle deleted = create(key, "first");
        assertThat(store.delete(key, deleted, timeout())).isEqualTo(DeleteResult.DELETED);

        assertThat(store.write(key, deleted, bytes("second"), timeout())).isEqualTo(refused(Refusal.NOT_FOUND));
        assertThat(store.read(key, timeout())).as("a refused write must not create the key").isEmpty();

        Handle elsewhere = create(newKey(), "third");
        String neverWritten = newKey();
        assertThat(store.write(neverWritten, elsewhere, bytes("fourth"), timeout())).isEqualTo(refused(Refusal.NOT_FOUND));
        assertThat(store.read(neverWritten, timeout())).isEmpty();
    }

    // ------------------------------------------------------------------------------------------- delete

    @Test
    void deleteWithStaleHandleIsRefusedAndKeepsObject() throws BackendException {
        requireCapability(Capability.CONDITIONAL_DELETE);
        String key = newKey();
        Handle stale = create(key, "first");
        Handle current = written(store.write(key, stale, bytes("second"), timeout()));

        assertThat(store.delete(key, stale, timeout())).isEqualTo(DeleteResult.PRECONDITION_FAILED);
        assertStored(key, "second", current);
    }

    @Test
    void deleteWithNoneOnExistingKeyIsRefused() throws BackendException {
        String key = newKey();
        Handle handle = create(key, "first");

        assertThat(store.delete(key, Handle.NONE, timeout())).isEqualTo(DeleteResult.PRECONDITION_FAILED);
        assertStored(key, "first", handle);
    }

    @Test
    void deleteWithCurrentHandleRemovesObject() throws BackendException {
        String key = newKey();
        Handle first = create(key, "first");
        Handle current = written(store.write(key, first, bytes("second"), timeout()));

        assertThat(store.delete(key, current, timeout())).isEqualTo(DeleteResult.DELETED);
        assertThat(store.read(key, timeout())).isEmpty();

        Handle recreated = create(key, "third");
        assertStored(key, "third", recreated);
    }

    @Test
    void deleteOfMissingKeyIsNotFound() throws BackendException {
        requireCapability(Capability.CONDITIONAL_DELETE);
        String key = newKey();
        Handle elsewhere = create(newKey(), "first");

        assertThat(store.delete(key, elsewhere, timeout())).isEqualTo(DeleteResult.NOT_FOUND);

        Handle handle = create(key, "second");
        assertThat(store.delete(key, handle, timeout())).isEqualTo(DeleteResult.DELETED);
        assertThat(store.delete(key, handle, timeout())).as("second delete").isEqualTo(DeleteResult.NOT_FOUND);
    }

    // ------------------------------------------------------------------------------------------ keys

    @Test
    void keysWithSharedPrefixesAreIndependent() throws BackendException {
        new KeyCases(this).keysWithSharedPrefixesAreIndependent();
    }

    @Test
    void keysWithSharedPrefixesAreIndependentForDeletes() throws BackendException {
        new KeyCases(this).keysWithSharedPrefixesAreIndependentForDeletes();
    }

    @Test
    void keysThatDifferOnlyInCaseAreIndependent() throws BackendException {
        new KeyCases(this).keysThatDifferOnlyInCaseAreIndependent();
    }

    @Test
    void manyKeysInOneStoreKeepTheirOwnContent() throws BackendException {
        new KeyCases(this).manyKeysInOneStoreKeepTheirOwnContent();
    }

    @Test
    void longestValidKeyAndAllKeyCharactersWork() throws BackendException {
        new KeyCases(this).longestValidKeyAndAllKeyCharactersWork();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/", "/lease", "lease/", "a//b", ".", "..", "a/./b", "a/../b", "a b", "lease*",
            "a\\b", "l\u00e9ase", "a\nb"})
    void invalidKeysAreRejected(String key) {
        new KeyCases(this).invalidKeysAreRejected(key);
    }

    @Test
    void overlongKeyIsRejected() {
        new KeyCases(this).overlongKeyIsRejected();
    }

    // ---------------------------------------------------------------------------------------- content

    @Test
    void nonAsciiContentRoundTrips() throws BackendException {
        new ContentCases(this).nonAsciiContentRoundTrips();
    }

    @Test
    void everyByteValueRoundTrips() throws BackendException {
        new ContentCases(this).everyByteValueRoundTrips();
    }

    @Test
    void largeContentRoundTripsAndReplacesCompletely() throws BackendException {
        new ContentCases(this).largeContentRoundTripsAndReplacesCompletely();
    }

    /**
     * An object larger than a lease record may be read back cut to {@code MAX_SIZE + 1} bytes (so that a huge object
     * under a lease key costs no more memory), but always with its real handle, so that it can still be replaced.
     */
    @Test
    void anObjectLargerThanARecordReadsAsItsStartWithItsRealHandle() throws BackendException {
        new ContentCases(this).anObjectLargerThanARecordReadsAsItsStartWithItsRealHandle();
    }

    @Test
    void storeKeepsNoReferenceToCallersArray() throws BackendException {
        new ContentCases(this).storeKeepsNoReferenceToCallersArray();
    }

    // ------------------------------------------------------------------------------------ incarnations

    /**
     * The fresh-handle clause across a re-creation of the store: a write or delete conditional on a handle from an
     * earlier incarnation of the container (before it was deleted and created again) never applies, at any point of
     * the new incarnation's history. A stale holder that slept through the re-creation still has its last handle, and
     * a new holder writes the same key in the new container; a store whose handles restart with the container (a
     * per-index sequence number) would let the stale holder overwrite or delete the new holder's record.
     *
     * <p>The case starts from an empty container ({@link #recreateContainer()}), writes the key a few times, re-creates
     * the container and then repeats exactly the same sequence of operations, so that a store whose handles are
     * counters of the container hands out the same handles again. Before every step of the new incarnation, every
     * handle of the earlier one is tried in a write (and, where the store has conditional deletes, a delete): each
     * must be refused ({@code NOT_FOUND} while the key does not exist yet, {@code PRECONDITION_FAILED} after) and
     * leave the new record as it was.
     *
     * <p>Every write here stores different bytes, as the lease layer's writes always do (each lease record carries a
     * fresh nonce): the contract ties a handle to the bytes it stored ({@link Backend}, "fresh handles"), so a store
     * whose handle is a hash of the bytes (an S3 ETag is the MD5 of the body, the filesystem store's the SHA-256)
     * returns the same handle for the same bytes in a new container, which is harmless for the lease layer and not
     * demanded here.
     */
    @Test
    void aWriteConditionalOnAHandleFromAnEarlierIncarnationOfTheStoreNeverApplies() throws Exception {
        IncarnationCase.run(this);
    }

    // ------------------------------------------------------------------------------------------ races

    @Test
    void concurrentCreatesHaveExactlyOneWinner() throws Exception {
        new ContractRaces(this).writesExpecting((key, round) -> Handle.NONE);
    }

    @Test
    void concurrentSwapsOfOneHandleHaveExactlyOneWinner() throws Exception {
        new ContractRaces(this).writesExpecting((key, round) -> create(key, "initial of round " + round));
    }

    @Test
    void concurrentDeletesAndSwapsOfOneHandleHaveExactlyOneWinner() throws Exception {
        requireCapability(Capability.CONDITIONAL_DELETE);
        new ContractRaces(this).deletesAndSwapsOfOneHandle();
    }

    // ---------------------------------------------------------------------------------------- helpers

    /** Creates {@code key} with {@code content} and returns its handle, failing the test if that is refused. */
    protected final Handle create(String key, String content) throws BackendException {
        return written(store.write(key, Handle.NONE, bytes(content), timeout()));
    }

    /** Reads {@code key}, failing the test if it is missing. */
    protected final StoredObject read(String key) throws BackendException {
        Optional<StoredObject> stored = store.read(key, timeout());
        assertThat(stored).as("object under %s", key).isPresent();
        return stored.get();
    }

    /** Asserts that {@code key} holds exactly {@code content} under {@code handle}. */
    protected final void assertStored(String key, String content, Handle handle) throws BackendException {
        assertStored(key, bytes(content), handle);
    }

    /** Asserts that {@code key} holds exactly {@code content} under {@code handle}. */
    protected final void assertStored(String key, byte[] content, Handle handle) throws BackendException {
        StoredObject stored = read(key);
        assertThat(stored.content()).as("content under %s", key).isEqualTo(content);
        assertThat(stored.handle()).as("handle under %s", key).isEqualTo(handle);
    }

    /** Returns the handle of a successful write, failing the test on a refusal. */
    protected static Handle written(WriteResult result) {
        assertThat(result).as("write result").isInstanceOf(WriteResult.Written.class);
        Handle handle = ((WriteResult.Written) result).handle();
        assertThat(handle.isNone()).as("handle of a successful write is Handle.NONE").isFalse();
        return handle;
    }

    /** UTF-8 bytes of {@code text}. */
    protected static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    static WriteResult refused(Refusal reason) {
        return new WriteResult.Refused(reason);
    }
}
