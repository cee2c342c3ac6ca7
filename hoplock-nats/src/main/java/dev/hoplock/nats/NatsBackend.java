package dev.hoplock.nats;

import dev.hoplock.core.backend.Backend;
import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.backend.DeleteResult;
import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoredObject;
import dev.hoplock.core.backend.WriteResult;
import io.nats.client.Connection;
import org.jspecify.annotations.Nullable;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A {@link Backend} over one NATS JetStream key-value bucket: every lease key is one KV key (see {@link KvKeys} for
 * the mapping and the optional key prefix), its value the lease record's bytes unchanged, and its revision the
 * {@link Handle}.
 *
 * <h2>Protocol</h2>
 * <table>
 *   <caption>One request per operation (a refused write or delete adds one read, see below)</caption>
 *   <tr><th>operation</th><th>request</th><th>answers</th></tr>
 *   <tr><td>read</td><td>{@code $JS.API.STREAM.MSG.GET.KV_<bucket>} {@code {"last_by_subj": ...}}, answered by the
 *       stream leader</td><td>a value: the bytes and its revision; a delete marker or no message: no object</td></tr>
 *   <tr><td>create ({@link Handle#NONE})</td><td>publish with {@code Nats-Expected-Last-Subject-Sequence: 0}</td>
 *       <td>stored: written; wrong last sequence: read; a value there is {@code PRECONDITION_FAILED}, a delete marker
 *       is replaced by the same publish expecting the marker's revision</td></tr>
 *   <tr><td>swap</td><td>publish with {@code Nats-Expected-Last-Subject-Sequence: <revision>}</td>
 *       <td>stored: written; wrong last sequence: refused</td></tr>
 *   <tr><td>delete</td><td>a delete marker ({@code KV-Operation: DEL}, no body) with
 *       {@code Nats-Expected-Last-Subject-Sequence: <revision>}</td><td>stored: deleted; wrong last sequence:
 *       refused</td></tr>
 * </table>
 * A refusal does not say whether the key holds another version or none, so a refused swap or delete reads the key once
 * to tell {@code NOT_FOUND} from {@code PRECONDITION_FAILED}: that answer holds at the instant of the read, since a
 * revision once replaced never comes back. We chose the revision-conditional delete marker (what
 * {@code KeyValue.delete(key, revision)} writes) over a purge: it is conditional in the same way, keeps the bucket's
 * history as configured, and reads as deleted in every NATS tool; the marker stays as the key's latest message, so the
 * next create replaces it conditionally on its revision.
 *
 * <h2>Guarantees</h2>
 * <ul>
 *   <li><b>Conditional writes are atomic</b>: a single server checks the expected sequence as it stores each message,
 *       one at a time; in a cluster the stream leader checks it before it replicates the message, counting the writes
 *       it has in flight for the key (nats-server 2.9.21 and later), so of concurrent writes expecting one revision at
 *       most one is stored. nats-server before 2.9.21 in a cluster does not count the writes in flight: several can
 *       be stored, and {@link #verify()} reports such a store without conditional writes, so
 *       {@link NatsBackendBuilder#build()} and every elector refuse it (docs/stores/nats.md has the measurement).</li>
 *   <li><b>Reads come from the stream leader</b>, never from a replica or mirror ({@link KvRequests}): a read sees every
 *       write acknowledged before it was sent. Limit: a stream leader cut off from its peers goes on answering reads
 *       from its own state until it notices that it lost its quorum (seconds), while the majority may already have a
 *       new leader that accepts writes. Such a stale read cannot make two leaders: every decision hoplock takes from a
 *       read (take over, create, release) is a conditional write, which the cut-off leader cannot commit and the new
 *       one refuses when the revision is not the current one. It can delay a takeover; docs/stores/nats.md gives the
 *       figures.</li>
 *   <li><b>Handles never repeat</b>, also across a deletion and re-creation of the bucket, as far as every life of the
 *       bucket started at a random first revision ({@link Revisions}); any answer with a revision below
 *       {@link Revisions#FLOOR} is refused as {@link BackendException.Kind#MISCONFIGURED}.</li>
 *   <li><b>Durable only as the servers are</b>: an acknowledged write survives a crash of the nats-server process
 *       (it is in the operating system's cache), but an operating-system crash or power loss of the replicas within
 *       JetStream's sync interval loses it unless the servers run with {@code sync_interval: always} (nats-server
 *       2.10 and later; 2.9 has no such setting). A lost renewal lets another process lead while the writer still
 *       does. See docs/stores/nats.md.</li>
 *   <li><b>Bounded</b>: each call, all its requests together, takes at most its {@code timeout} capped by the request
 *       timeout ({@link CallBudget}); a write whose answer does not come in time has an unknown outcome
 *       ({@link BackendException.Kind#TRANSIENT}). Nothing is sent while the connection is not connected.</li>
 *   <li>Every failure is a {@link BackendException} whose kind and message name the cause and the fix (see
 *       {@link NatsErrors}); no message, log line, {@link #describe()} or {@link #toString()} contains credentials.</li>
 * </ul>
 *
 * <p>Thread-safe. {@link #close()} closes the connection only if the builder opened it.
 */
public final class NatsBackend implements Backend, AutoCloseable {

    /**
     * {@link #DEFAULT_REQUEST_TIMEOUT} in seconds, a compile-time constant: a configuration layer that has this module
     * only as an optional dependency takes its default from here without loading this class.
     */
    public static final long DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
    /** The longest a call may take when the caller allows longer. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(DEFAULT_REQUEST_TIMEOUT_SECONDS);

    private final Connection connection;
    private final boolean ownsConnection;
    private final KvKeys keys;
    private final KvRequests requests;
    private final BucketSetup setup;
    private final Duration requestTimeout;
    private final String description;
    private volatile @Nullable StoreCapabilities verified;

    NatsBackend(Connection connection, boolean ownsConnection, KvKeys keys, String servers, Duration requestTimeout,
            BucketSetup.Settings settings) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.ownsConnection = ownsConnection;
        this.keys = keys;
        this.requestTimeout = requestTimeout;
        this.description = "nats-kv://" + keys.bucket() + (keys.prefix().isEmpty() ? "" : "/" + keys.prefix())
                + " at " + servers;
        NatsErrors errors = new NatsErrors(description, servers, keys);
        this.requests = new KvRequests(new NatsExchange(connection, errors), keys);
        this.setup = new BucketSetup(requests, settings);
    }

    /** Starts the configuration of a NATS KV backend. */
    public static NatsBackendBuilder builder() {
        return new NatsBackendBuilder();
    }

    /** The bucket that holds the leases. */
    public String bucket() {
        return keys.bucket();
    }

    /** The KV key that holds {@code leaseKey} (with the key prefix), for operators: {@code nats kv get <bucket> <it>}. */
    public String kvKey(String leaseKey) {
        return keys.kvKey(leaseKey);
    }

    @Override
    public Optional<StoredObject> read(String key, Duration timeout) throws BackendException {
        String subject = keys.subject(key);
        String what = "the read of '" + key + "' in " + description;
        KvRequests.LastVersion last = requests.last(subject, what, budget(timeout, what));
        if (last == null || last.marker()) {
            return Optional.empty();
        }
        return Optional.of(new StoredObject(last.content(), Revisions.handle(last.revision())));
    }

    @Override
    public WriteResult write(String key, Handle expected, byte[] content, Duration timeout) throws BackendException {
        String subject = keys.subject(key);
        Objects.requireNonNull(expected, "expected");
        byte[] bytes = Objects.requireNonNull(content, "content").clone();
        if (expected.isNone()) {
            String what = "the create of '" + key + "' in " + description;
            return create(key, subject, bytes, what, budget(timeout, what));
        }
        String what = "the compare-and-swap of '" + key + "' in " + description;
        CallBudget budget = budget(timeout, what);
        OptionalLong revision = Revisions.parse(expected);
        if (revision.isPresent()) {
            KvRequests.Published published = requests.publish(subject, bytes, revision.getAsLong(), false, what,
                    budget);
            if (published instanceof KvRequests.Stored stored) {
                return WriteResult.written(Revisions.handle(stored.revision()));
            }
        }
        return present(key, subject, budget) ? WriteResult.preconditionFailed() : WriteResult.notFound();
    }

    @Override
    public DeleteResult delete(String key, Handle expected, Duration timeout) throws BackendException {
        String subject = keys.subject(key);
        Objects.requireNonNull(expected, "expected");
        String what = "the delete of '" + key + "' in " + description;
        CallBudget budget = budget(timeout, what);
        OptionalLong revision = expected.isNone() ? OptionalLong.empty() : Revisions.parse(expected);
        if (revision.isPresent()) {
            KvRequests.Published published = requests.publish(subject, new byte[0], revision.getAsLong(), true, what,
                    budget);
            if (published instanceof KvRequests.Stored) {
                return DeleteResult.DELETED;
            }
        }
        return present(key, subject, budget) ? DeleteResult.PRECONDITION_FAILED : DeleteResult.NOT_FOUND;
    }

    /**
     * Checks the bucket once (and creates it first when the builder was told to): that it exists as a KV bucket on file
     * storage without a TTL, with the history and replicas asked for, that its revisions start at or above
     * {@link Revisions#FLOOR}, that this user may read and write its keys, and that the stream honours the expected
     * revision of a create, a swap and a delete (a probe on a key no lease maps to). Returns the remembered report afterwards; a failed check is tried again on the
     * next call.
     *
     * @return create, swap and delete {@link StoreCapabilities.Support#VERIFIED} when the conditional-write probe on
     *         the probe key saw a create of the existing key, a swap and a delete with a stale revision refused (and a
     *         write with the current revision stored); the first of them that was stored instead
     *         {@link StoreCapabilities.Support#NOT_SUPPORTED}, naming what was stored, the cause and the fix (the
     *         builder and every elector then refuse the store), those after it
     *         {@link StoreCapabilities.Support#UNKNOWN}
     * @throws BackendException naming the cause and the fix when the bucket is missing or unfit, JetStream is off, or a
     *                          permission is missing
     */
    @Override
    public StoreCapabilities verify() throws BackendException {
        StoreCapabilities known = verified;
        if (known != null) {
            return known;
        }
        synchronized (setup) {
            if (verified == null) {
                verified = setup.run(requestTimeout, description);
            }
            return Objects.requireNonNull(verified);
        }
    }

    /** {@code nats-kv://<bucket>[/<prefix>] at <servers>}; never a user, password, token or credentials. */
    @Override
    public String describe() {
        return description;
    }

    @Override
    public String toString() {
        return "NatsBackend[" + description + "]";
    }

    /** Closes the connection if the builder opened it; an application's connection is left open. */
    @Override
    public void close() throws InterruptedException {
        if (ownsConnection) {
            connection.close();
        }
    }

    private WriteResult create(String key, String subject, byte[] bytes, String what, CallBudget budget)
            throws BackendException {
        long expected = 0;
        while (true) {
            KvRequests.Published published = requests.publish(subject, bytes, expected, false, what, budget);
            if (published instanceof KvRequests.Stored stored) {
                return WriteResult.written(Revisions.handle(stored.revision()));
            }
            KvRequests.LastVersion last = requests.last(subject, "the read after a refused " + what, budget);
            if (last != null && !last.marker()) {
                return WriteResult.preconditionFailed();
            }
            // A delete marker, or no message any more: the key does not exist. Create over it, conditional on the
            // marker's revision; each round is one more write of someone else, and the budget bounds the rounds.
            expected = last == null ? 0 : last.revision();
        }
    }

    private boolean present(String key, String subject, CallBudget budget) throws BackendException {
        KvRequests.LastVersion last = requests.last(subject, "the read after a refused write of '" + key + "' in "
                + description, budget);
        return last != null && !last.marker();
    }

    private CallBudget budget(Duration timeout, String what) throws BackendException {
        return CallBudget.forCall(timeout, requestTimeout, () -> what);
    }
}
