package dev.hoplock.nats;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.CallBudget;
import dev.hoplock.core.backend.StoreCapabilities;
import dev.hoplock.core.backend.StoreCapabilities.Capability;
import dev.hoplock.core.backend.StoreCapabilities.Support;
import io.nats.client.Message;
import io.nats.client.api.DiscardPolicy;
import io.nats.client.api.KeyValueConfiguration;
import io.nats.client.api.PurgeResponse;
import io.nats.client.api.StorageType;
import io.nats.client.api.StreamConfiguration;
import io.nats.client.api.StreamInfo;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The start-up check of the bucket ({@link NatsBackend#verify()}), and its creation when asked.
 *
 * <p>The check: the stream {@code KV_<bucket>} exists and is a key-value bucket ({@code $KV.<bucket>.>}, no mirror or
 * sources, not sealed), on file storage (memory storage loses every lease, and restarts the revisions, when the server
 * restarts), with no TTL ({@code max_age}: an expired record kept for its generation would vanish and fencing tokens
 * restart at 1), not discarding old messages when full, with the history and replicas asked for; its next revision is
 * at least {@link Revisions#FLOOR}; this user may read and write keys, and the stream honours the expected revision of
 * a create, a swap and a delete (the conditional-write probe on the probe key, see {@code probe}). The probe key
 * contains {@code /}, which no lease key maps to ({@link KvKeys#probeKey()}).
 *
 * <p>The creation, so that no two lives of a bucket share revisions ({@link Revisions}): the stream is created with
 * the bucket's configuration (as the NATS client makes it for {@code KeyValueManagement.create}) but a subject of its
 * own that nobody publishes to, purged to a random first sequence between 2^48 and 2^52 while it is empty, then given
 * the bucket's subjects. Only the process whose create request made the stream does the two later steps; another that
 * finds the stream half made reports it as being created. Needs the permissions to publish to
 * {@code $JS.API.STREAM.CREATE/UPDATE/PURGE/INFO.KV_<bucket>}.
 */
final class BucketSetup {

    private static final Logger log = LoggerFactory.getLogger(BucketSetup.class);
    private static final String INIT_SUBJECT_PREFIX = "hoplock-init.";

    /**
     * What the builder asked for.
     *
     * @param createBucket create the bucket when it does not exist
     * @param history      the history per key to require (null: any) and to create with (null: 1)
     * @param replicas     the replicas to require (null: any) and to create with (null: 1)
     */
    record Settings(boolean createBucket, @Nullable Integer history, @Nullable Integer replicas) {
    }

    private final KvRequests requests;
    private final KvKeys keys;
    private final NatsExchange exchange;
    private final Settings settings;

    BucketSetup(KvRequests requests, Settings settings) {
        this.requests = requests;
        this.keys = requests.keys();
        this.exchange = requests.exchange();
        this.settings = settings;
    }

    /**
     * Runs the check (and the creation when asked). Each request gets a budget of its own of {@code stepTimeout}: the
     * check's five requests (nine with the creation) need not fit together into one request's time, which a process
     * starting on a loaded machine, where its first requests are slow, could not count on.
     */
    StoreCapabilities run(Duration stepTimeout, String store) throws BackendException {
        StreamInfo info = streamInfo(CallBudget.of(stepTimeout));
        if (info == null) {
            if (!settings.createBucket()) {
                throw exchange.errors().missingBucket(infoCall());
            }
            info = create(stepTimeout);
        }
        checkConfiguration(info.getConfiguration());
        long next = info.getStreamState().getLastSequence() + 1;
        if (!Revisions.usable(next)) {
            throw new BackendException(Kind.MISCONFIGURED, "the NATS KV bucket '" + keys.bucket() + "' numbers its"
                    + " revisions from 1 (next revision " + next + "), so they would repeat if the bucket were ever"
                    + " deleted and created again, and a holder that slept through that could overwrite a new holder's"
                    + " lease. hoplock uses only revisions from " + Revisions.FLOOR + " on. While the bucket is empty,"
                    + " move its first revision up: nats stream purge " + keys.stream() + " --seq=<a random number"
                    + " between " + Revisions.FIRST_MIN + " and " + Revisions.FIRST_MAX + "> -f; or let hoplock create"
                    + " a new bucket (createBucket(true), hoplock.nats.create-bucket=true)");
        }
        ProbeVerdict probe = probe(store, stepTimeout);
        warnAboutDurability();
        String laggingReads = laggingReads(info.getConfiguration().getReplicas());
        String racyServer = racyClusteredCheck(info);
        if (racyServer != null) {
            log.error("hoplock: {} cannot be used for leases: {}", store, racyServer);
            return reads(StoreCapabilities.builder(store).handleForm("revision")
                    .set(Capability.CONDITIONAL_CREATE, Support.NOT_SUPPORTED, racyServer)
                    .set(Capability.CONDITIONAL_SWAP, Support.NOT_SUPPORTED, racyServer)
                    .set(Capability.CONDITIONAL_DELETE, Support.NOT_SUPPORTED, racyServer), laggingReads).build();
        }
        if (probe.failure() != null) {
            log.error("hoplock: {} does not honour conditional writes: {}", store, probe.failure());
        }
        return reads(probe.capabilities(store), laggingReads).build();
    }

    private static StoreCapabilities.Builder reads(StoreCapabilities.Builder capabilities,
            @Nullable String laggingReads) {
        return laggingReads == null ? capabilities
                : capabilities.reads(StoreCapabilities.Reads.MAY_LAG, laggingReads);
    }

    /**
     * What the probe saw: the support of each conditional request, and the first failure ({@code null} when every
     * check held).
     */
    private record ProbeVerdict(Support create, Support swap, Support delete, @Nullable String failure) {

        StoreCapabilities.Builder capabilities(String store) {
            String seen = failure == null ? "" : failure;
            return StoreCapabilities.builder(store).handleForm("revision")
                    .set(Capability.CONDITIONAL_CREATE, create, create == Support.VERIFIED ? "a create (expected"
                            + " revision 0) of the existing probe key was refused" : create == Support.NOT_SUPPORTED
                            ? seen : "")
                    .set(Capability.CONDITIONAL_SWAP, swap, swap == Support.VERIFIED ? "a write with the current"
                            + " revision was stored and one with a stale revision refused" : swap
                            == Support.NOT_SUPPORTED ? seen : "")
                    .set(Capability.CONDITIONAL_DELETE, delete, delete == Support.VERIFIED ? "a delete with a stale"
                            + " revision was refused" : delete == Support.NOT_SUPPORTED ? seen : "");
        }
    }

    /**
     * The conditional-write probe, on the probe key ({@link KvKeys#probeKey()}, which no lease key maps to), as the
     * other stores run it on a side key: (1) a write conditional on the key's current latest revision (0 or a delete
     * marker's: a create; a value's: a swap) must be stored, at revision r; (2) a create (expected revision 0) of the
     * now existing key must be refused; (3) a write expecting r - 1, which cannot be the key's latest revision any more,
     * must be refused; (4) a delete marker expecting r - 1 must be refused. A server, bucket or proxy that ignores
     * {@code Nats-Expected-Last-Subject-Sequence} stores (2) to (4), and is reported {@link Support#NOT_SUPPORTED} with
     * what it stored, so that {@link NatsBackendBuilder#build()} and every elector refuse it. Then (5) the key is
     * deleted conditionally on its revision (a delete marker), leaving one marker per check in the key's history.
     * Concurrent checks of other processes on the same key only make steps (2) to (4) more certain to be refused; step
     * (1) is tried again, a few times, when another check wrote in between.
     */
    private ProbeVerdict probe(String store, Duration stepTimeout) throws BackendException {
        String subject = keys.probeSubject();
        String key = "the probe key '" + keys.probeKey() + "' in " + store;
        long written = -1;
        for (int attempt = 0; attempt < 5 && written < 0; attempt++) {
            KvRequests.LastVersion last = requests.last(subject, "the start-up read of " + key,
                    CallBudget.of(stepTimeout));
            long current = last == null ? 0 : last.revision();
            KvRequests.Published first = requests.publish(subject, probeBytes("conditional write"), current, false,
                    "the start-up probe's write to " + key + " (conditional on its current revision " + current + ")",
                    CallBudget.of(stepTimeout));
            if (first instanceof KvRequests.Stored stored) {
                written = stored.revision();
            }
        }
        if (written < 0) {
            throw new BackendException(Kind.TRANSIENT, "the start-up check of " + store + " could not write "
                    + key + " conditionally on its current revision in five tries (other processes checking at the"
                    + " same time?); retry in a moment");
        }
        String fix = " The server, or a proxy between hoplock and it, ignores the expected-revision header"
                + " Nats-Expected-Last-Subject-Sequence, so two processes could both take one lease. Connect hoplock"
                + " directly to nats-server 2.9.21 or later (not through a proxy or gateway that drops or rewrites"
                + " message headers), or use another store";
        KvRequests.Published create = requests.publish(subject, probeBytes("second create"), 0, false,
                "the start-up probe's create of " + key + " (expected revision 0, which it must refuse)",
                CallBudget.of(stepTimeout));
        if (create instanceof KvRequests.Stored stored) {
            return new ProbeVerdict(Support.NOT_SUPPORTED, Support.UNKNOWN, Support.UNKNOWN, "a publish to " + subject
                    + " with Nats-Expected-Last-Subject-Sequence: 0 (create) was stored at revision "
                    + stored.revision() + " although the key already held revision " + written + "." + fix);
        }
        long stale = written - 1;
        KvRequests.Published swap = requests.publish(subject, probeBytes("stale swap"), stale, false,
                "the start-up probe's write to " + key + " with the stale revision " + stale + " (which it must"
                        + " refuse)", CallBudget.of(stepTimeout));
        if (swap instanceof KvRequests.Stored stored) {
            return new ProbeVerdict(Support.VERIFIED, Support.NOT_SUPPORTED, Support.UNKNOWN, "a publish to " + subject
                    + " with Nats-Expected-Last-Subject-Sequence: " + stale + " (a stale revision: the key held "
                    + written + ") was stored at revision " + stored.revision() + "." + fix);
        }
        KvRequests.Published delete = requests.publish(subject, new byte[0], stale, true,
                "the start-up probe's delete of " + key + " with the stale revision " + stale + " (which it must"
                        + " refuse)", CallBudget.of(stepTimeout));
        if (delete instanceof KvRequests.Stored stored) {
            return new ProbeVerdict(Support.VERIFIED, Support.VERIFIED, Support.NOT_SUPPORTED, "a delete marker"
                    + " published to " + subject + " with Nats-Expected-Last-Subject-Sequence: " + stale + " (a stale"
                    + " revision: the key held " + written + ") was stored at revision " + stored.revision() + "."
                    + fix);
        }
        // Leave the key deleted; refused only when another check wrote in between, which is no failure of ours.
        requests.publish(subject, new byte[0], written, true, "the start-up probe's delete of " + key
                + " with its current revision " + written, CallBudget.of(stepTimeout));
        return new ProbeVerdict(Support.VERIFIED, Support.VERIFIED, Support.VERIFIED, null);
    }

    private static byte[] probeBytes(String step) {
        return ("hoplock start-up probe: " + step).getBytes(StandardCharsets.UTF_8);
    }

    /** The stream's info, or null when it does not exist. */
    private @Nullable StreamInfo streamInfo(CallBudget budget) throws BackendException {
        NatsCall call = infoCall();
        Message reply = exchange.request(call, null, null, budget);
        StreamInfo info = new StreamInfo(reply);
        if (info.hasError()) {
            if (info.getApiErrorCode() == NatsErrors.STREAM_NOT_FOUND) {
                return null;
            }
            throw exchange.errors().apiError(call, info);
        }
        return info;
    }

    private NatsCall infoCall() {
        return NatsCall.api("the start-up check of the KV bucket '" + keys.bucket() + "'",
                "$JS.API.STREAM.INFO." + keys.stream());
    }

    private void checkConfiguration(StreamConfiguration config) throws BackendException {
        List<String> subjects = config.getSubjects();
        if (subjects.size() == 1 && subjects.get(0).startsWith(INIT_SUBJECT_PREFIX)) {
            throw new BackendException(Kind.TRANSIENT, "the NATS KV bucket '" + keys.bucket() + "' is being created"
                    + " by another process (its stream " + keys.stream() + " still has the subject " + subjects.get(0)
                    + "); retry in a moment. If it stays so, a creation stopped half-way: delete the empty stream"
                    + " (nats stream rm " + keys.stream() + " -f) and start again");
        }
        List<String> problems = new ArrayList<>();
        if (!subjects.equals(List.of(keys.streamSubject()))) {
            problems.add("its stream " + keys.stream() + " takes " + subjects + ", not [" + keys.streamSubject()
                    + "]: it is not a key-value bucket");
        }
        if (config.getMirror() != null || !config.getSources().isEmpty()) {
            problems.add("it is a mirror or has sources (a mirror is read-only and lags its origin): use the origin"
                    + " bucket");
        }
        if (config.getSealed()) {
            problems.add("it is sealed (no writes)");
        }
        if (config.getStorageType() != StorageType.File) {
            problems.add("it keeps its data in memory, so a server restart loses every lease and restarts the"
                    + " revisions: use file storage (nats kv add --storage=file)");
        }
        if (config.getMaxAge() != null && !config.getMaxAge().isZero()) {
            problems.add("its entries expire after " + config.getMaxAge() + " (--ttl): a released record kept for its"
                    + " generation would vanish and fencing tokens restart at 1; use a bucket without TTL");
        }
        if (config.getDiscardPolicy() == DiscardPolicy.Old && (config.getMaxMsgs() > 0 || config.getMaxBytes() > 0)) {
            problems.add("it discards old messages when full, which deletes leases; use discard new (as nats kv add"
                    + " does)");
        }
        Integer history = settings.history();
        if (history != null && config.getMaxMsgsPerSubject() != history) {
            problems.add("it keeps " + config.getMaxMsgsPerSubject() + " values per key (history), not the "
                    + history + " asked for");
        }
        Integer replicas = settings.replicas();
        if (replicas != null && config.getReplicas() != replicas) {
            problems.add("it has " + config.getReplicas() + " replicas, not the " + replicas + " asked for");
        }
        if (!problems.isEmpty()) {
            throw new BackendException(Kind.MISCONFIGURED, "hoplock cannot use the NATS KV bucket '" + keys.bucket()
                    + "': " + String.join("; ", problems) + ". Fix the bucket (or the settings), or use another"
                    + " bucket name");
        }
    }

    private StreamInfo create(Duration stepTimeout) throws BackendException {
        StreamConfiguration bucket = bucketConfiguration();
        String initSubject = INIT_SUBJECT_PREFIX + keys.stream() + "."
                + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
        StreamConfiguration init = StreamConfiguration.builder(bucket).subjects(initSubject).build();
        String createSubject = "$JS.API.STREAM.CREATE." + keys.stream();
        NatsCall createCall = NatsCall.apiChange("the creation of the KV bucket '" + keys.bucket() + "'",
                createSubject);
        StreamInfo created = new StreamInfo(exchange.request(createCall, null,
                init.toJson().getBytes(StandardCharsets.UTF_8), CallBudget.of(stepTimeout)));
        if (created.hasError()) {
            if (created.getApiErrorCode() == NatsErrors.STREAM_NAME_IN_USE) {
                StreamInfo other = streamInfo(CallBudget.of(stepTimeout));
                if (other != null) {
                    return other; // another process made it; the check reports it if it is still half made
                }
            }
            throw exchange.errors().apiError(createCall, created);
        }
        if (!created.getConfiguration().getSubjects().equals(List.of(initSubject))) {
            return created; // made by another process at the same moment, with its own settings
        }
        long first = Revisions.randomFirst();
        String purgeSubject = "$JS.API.STREAM.PURGE." + keys.stream();
        NatsCall purgeCall = NatsCall.apiChange("the purge of the new, empty KV bucket '" + keys.bucket()
                + "' to its first revision " + first, purgeSubject);
        PurgeResponse purged = new PurgeResponse(exchange.request(purgeCall, null,
                ("{\"seq\":" + first + "}").getBytes(StandardCharsets.UTF_8), CallBudget.of(stepTimeout)));
        if (purged.hasError()) {
            throw exchange.errors().apiError(purgeCall, purged);
        }
        String updateSubject = "$JS.API.STREAM.UPDATE." + keys.stream();
        NatsCall updateCall = NatsCall.apiChange("the update of the new KV bucket '" + keys.bucket() + "' to its"
                + " subjects", updateSubject);
        StreamInfo updated = new StreamInfo(exchange.request(updateCall, null,
                bucket.toJson().getBytes(StandardCharsets.UTF_8), CallBudget.of(stepTimeout)));
        if (updated.hasError()) {
            throw exchange.errors().apiError(updateCall, updated);
        }
        log.info("hoplock: created the NATS KV bucket '{}' ({} replica(s), history {}), first revision {}",
                keys.bucket(), bucket.getReplicas(), bucket.getMaxMsgsPerSubject(), first);
        return updated;
    }

    private StreamConfiguration bucketConfiguration() {
        int history = settings.history() == null ? 1 : settings.history();
        int replicas = settings.replicas() == null ? 1 : settings.replicas();
        return KeyValueConfiguration.builder().name(keys.bucket()).maxHistoryPerKey(history).replicas(replicas)
                .storageType(StorageType.File)
                .description("hoplock leases (first revision moved up at creation: docs/stores/nats.md)")
                .build().getBackingConfig();
    }

    /**
     * Why the bucket's compare-and-swap is not atomic on this deployment, or null. nats-server before 2.9.21 (and the
     * 2.10 line before 2.10.0's release, which has the fix) checks {@code Nats-Expected-Last-Subject-Sequence} of a
     * clustered stream only on the leader before it proposes the message, against a state that does not yet hold the
     * messages proposed before it, and no more when it applies it (for a sequence above 0): two writes expecting one
     * revision that arrive together are both stored. Fixed by nats-server commit e1a00a8 ("Fix bug that would race
     * around check for last sequence per subject"), in 2.9.21 and 2.10.0. Our three-node measurement on 2.9.10 saw
     * three electors take one lease at once after a stream leader failover.
     */
    private @Nullable String racyClusteredCheck(StreamInfo info) {
        io.nats.client.api.ServerInfo server;
        try {
            server = exchange.connection().getServerInfo();
        } catch (RuntimeException unknown) {
            return null;
        }
        String cluster = server.getCluster();
        boolean clustered = cluster != null && !cluster.isEmpty() || info.getConfiguration().getReplicas() > 1;
        if (!clustered || !server.isOlderThanVersion("2.9.21")) {
            return null;
        }
        return "nats-server " + server.getVersion() + " in a cluster checks the expected revision of a write only"
                + " before it replicates it, so two writes expecting one revision can both be stored (two leaders);"
                + " fixed in nats-server 2.9.21 and 2.10.0. Upgrade the servers (2.10 or later, with jetstream {"
                + " sync_interval: always }), or use a single server, which checks every write as it stores it";
    }

    /**
     * Why the reads of a bucket with more than one replica may lag ({@link StoreCapabilities.Reads#MAY_LAG}), with the
     * fix, or null for one replica. Its reads come from the stream leader, which may answer from behind for a while
     * after it was deposed (docs/stores/nats.md, "Reads in a cluster"); per-key ownership refuses such a store, the
     * elector and named locks do not depend on current reads and run on it. Logged once per check.
     */
    private @Nullable String laggingReads(int replicas) {
        if (replicas <= 1) {
            return null;
        }
        log.warn("hoplock: the NATS KV bucket '{}' has {} replicas: its reads come from the stream leader, which may"
                + " answer from behind for a while after it was deposed. Leader election and named locks keep their"
                + " guarantees; per-key ownership (OwnershipGroup) refuses it: use a one-replica bucket or another"
                + " store for ownership (docs/stores/nats.md)", keys.bucket(), replicas);
        return "the KV bucket '" + keys.bucket() + "' has " + replicas + " replicas, whose stream leader may answer"
                + " reads from behind for a while after it was deposed; use a one-replica bucket or another store"
                + " for per-key ownership (docs/stores/nats.md, \"Reads in a cluster\")";
    }

    /** Logs once per check what the connected server's version can promise about durability (not visible to clients). */
    private void warnAboutDurability() {
        String version;
        try {
            version = exchange.connection().getServerInfo().getVersion();
        } catch (RuntimeException unknown) {
            return;
        }
        if (version != null && version.matches("2\\.[0-9]\\..*")) {
            log.warn("hoplock: nats-server {} has no 'sync_interval: always' (added in 2.10): it acknowledges writes"
                    + " before they reach the disk, so an operating-system crash or power loss of the bucket's"
                    + " replicas can lose an acknowledged lease renewal and let two processes lead. Use nats-server"
                    + " 2.10 or later with jetstream {{ sync_interval: always }} (docs/stores/nats.md)", version);
        } else {
            log.info("hoplock: the KV bucket '{}' is durable across an operating-system crash or power loss only if"
                    + " nats-server runs with jetstream {{ sync_interval: always }} (clients cannot see it;"
                    + " docs/stores/nats.md)", keys.bucket());
        }
    }
}
