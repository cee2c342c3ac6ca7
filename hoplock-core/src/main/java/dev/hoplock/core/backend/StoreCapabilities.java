package dev.hoplock.core.backend;

import org.jspecify.annotations.Nullable;

import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;

/**
 * What a store does with the three conditional requests of the {@link Backend} contract, as {@link Backend#verify()}
 * found it (or assumes it), so that each consumer refuses only what it needs.
 *
 * <p>Stores differ: Ceph RGW honours {@code If-None-Match: *} and {@code If-Match} on PUT but ignores {@code If-Match}
 * on DELETE. An elector that releases by writing an expired record (the default) needs only a conditional create and
 * swap, so it runs safely there; one that releases by DELETE would let a stale leader remove a newer leader's lease,
 * so it is refused. {@link #requireFor(boolean)} is that decision, in one place.
 *
 * <p>Guarantees: immutable; every {@link Capability} has a {@link Support} and a detail (never null, empty when there
 * is nothing to say); {@link #store()} and {@link #handleForm()} never contain credentials (they come from
 * {@link Backend#describe()} and the backend).
 *
 * @param store      the store as {@link Backend#describe()} names it
 * @param support    the support of every capability
 * @param details    for each capability, what was seen (for a refusal: the request and the store's answer), or ""
 * @param handleForm how the backend sends handles back to the store, for logs and status (for S3: the
 *                   {@code If-Match} ETag form, "as received" or "bare")
 * @param durability what the store promises about acknowledged writes ({@link Durability}), or null when the store
 *                   does not report it (it keeps them by its own contract)
 * @param durabilityDetail what the durability was read from (the server's settings), "" when not reported
 * @param reads      whether a read sees every write acknowledged before it was sent ({@link Reads}); {@link Reads#CURRENT}
 *                   unless the store reports otherwise
 * @param readsDetail why reads may lag (the deployment that makes them so, and the fix), "" for current reads
 */
public record StoreCapabilities(String store, Map<Capability, Support> support, Map<Capability, String> details,
        String handleForm, @Nullable Durability durability, String durabilityDetail, Reads reads, String readsDetail) {

    /** The handle form of a backend that sends handles exactly as the store gave them. */
    public static final String HANDLES_AS_RECEIVED = "as received";

    /** A conditional request of the {@link Backend} contract. */
    public enum Capability {
        /** {@link Backend#write} with {@link Handle#NONE}: create only if the key does not exist. */
        CONDITIONAL_CREATE("conditional create (write only if the key does not exist)"),
        /** {@link Backend#write} with a handle: replace only the version with that handle. */
        CONDITIONAL_SWAP("conditional swap (write only if the stored version is the expected one)"),
        /** {@link Backend#delete}: remove only the version with the expected handle. */
        CONDITIONAL_DELETE("conditional delete (delete only if the stored version is the expected one)");

        private final String description;

        Capability(String description) {
            this.description = description;
        }

        /** A phrase for messages, for example "conditional delete (delete only if ...)". */
        public String description() {
            return description;
        }
    }

    /**
     * Whether a read sees every write acknowledged before the read was sent. The {@link Backend} contract promises it
     * (linearisable reads), and every store reports {@link #CURRENT} unless its deployment breaks it: a replicated NATS
     * JetStream bucket answers reads from its stream leader, and a leader cut off from its peers may answer from behind
     * until it learns it was deposed.
     *
     * <p>Who needs it: the elector and named locks do not, since every decision they take from a read is a conditional
     * write that a stale view cannot commit. Per-key ownership does ({@link #requireCurrentReads(String)}): members act
     * on the membership they read, and its proof (rules M1 to M9) assumes reads are current.
     */
    public enum Reads {
        /** A read sees every write acknowledged before it was sent (the {@link Backend} contract). */
        CURRENT,
        /** A read may miss writes acknowledged before it was sent, for a while (see the report's detail). */
        MAY_LAG
    }

    /** Whether a store has a capability. */
    public enum Support {
        /** A probe saw the store refuse what it must refuse and accept what it must accept. */
        VERIFIED(true),
        /** Not checked: the backend promises it by its contract, or the check was switched off. */
        ASSUMED(true),
        /** A probe saw the store accept a request it must refuse (or refuse one it must accept). */
        NOT_SUPPORTED(false),
        /** Not known: the probe stopped at an earlier failure before it could check this. */
        UNKNOWN(false);

        private final boolean usable;

        Support(boolean usable) {
            this.usable = usable;
        }

        /** True for {@link #VERIFIED} and {@link #ASSUMED}: consumers may rely on it. */
        public boolean usable() {
            return usable;
        }
    }

    public StoreCapabilities {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(support, "support");
        Objects.requireNonNull(details, "details");
        Objects.requireNonNull(handleForm, "handleForm");
        Objects.requireNonNull(durabilityDetail, "durabilityDetail");
        Objects.requireNonNull(reads, "reads");
        Objects.requireNonNull(readsDetail, "readsDetail");
        EnumMap<Capability, Support> supportCopy = new EnumMap<>(Capability.class);
        EnumMap<Capability, String> detailsCopy = new EnumMap<>(Capability.class);
        for (Capability capability : Capability.values()) {
            supportCopy.put(capability, Objects.requireNonNull(support.get(capability),
                    () -> "no support given for " + capability));
            detailsCopy.put(capability, Objects.requireNonNullElse(details.get(capability), ""));
        }
        support = Map.copyOf(supportCopy);
        details = Map.copyOf(detailsCopy);
    }

    /**
     * A report without a durability and with current reads: the store keeps acknowledged writes, and shows them to
     * every later read, by its own contract.
     */
    public StoreCapabilities(String store, Map<Capability, Support> support, Map<Capability, String> details,
            String handleForm) {
        this(store, support, details, handleForm, null, "", Reads.CURRENT, "");
    }

    /**
     * Every capability {@link Support#ASSUMED}, handles sent as received: what {@link Backend#verify()} reports for a
     * backend that does not check its store (its contract promises the capabilities).
     */
    public static StoreCapabilities assumed(String store) {
        return builder(store).build();
    }

    /** Starts a report for {@code store}: every capability {@link Support#ASSUMED} until set otherwise. */
    public static Builder builder(String store) {
        return new Builder(store);
    }

    /** The support of one capability. */
    public Support support(Capability capability) {
        return Objects.requireNonNull(support.get(capability), "the constructor gives every capability a support");
    }

    /** What was seen about one capability, or "" when there is nothing to say. */
    public String detail(Capability capability) {
        return Objects.requireNonNull(details.get(capability), "the constructor gives every capability a detail");
    }

    /** True when consumers may rely on {@code capability} ({@link Support#usable()}). */
    public boolean has(Capability capability) {
        return support(capability).usable();
    }

    /**
     * Refuses the store for an elector that cannot be safe on it. An elector needs a conditional create and a
     * conditional swap; when it releases by DELETE ({@code releaseByDelete}) it also needs a conditional delete,
     * since a store that ignores the condition on DELETE lets a stale leader remove a newer leader's lease. An elector
     * that releases by writing an expired record never sends a DELETE, so it runs on such a store.
     *
     * @throws StoreNotCapableException naming the missing capability, what the probe saw, and the fix
     */
    public void requireFor(boolean releaseByDelete) throws StoreNotCapableException {
        require(Capability.CONDITIONAL_CREATE, "An elector creates the lease with it; without it two candidates"
                + " could both create the lease and lead at once");
        require(Capability.CONDITIONAL_SWAP, "An elector renews and takes over the lease with it; without it a"
                + " stale leader's renewal could overwrite a newer leader's lease");
        if (releaseByDelete) {
            require(Capability.CONDITIONAL_DELETE, "Release by DELETE (releaseByDelete=true) needs it: a stale"
                    + " leader's release could remove a newer leader's lease, and a third candidate could then lead"
                    + " beside the newer leader. Release by writing an expired record (releaseByDelete=false, the"
                    + " default) sends no DELETE and is safe on this store");
        }
    }

    /**
     * Refuses the store if it lacks {@code capability}.
     *
     * @param why why the caller needs it, a sentence for the message (for example "Release by DELETE needs it: ...")
     * @throws StoreNotCapableException naming the store and capability, what was seen, and {@code why}
     */
    public void require(Capability capability, String why) throws StoreNotCapableException {
        Objects.requireNonNull(capability, "capability");
        Objects.requireNonNull(why, "why");
        Support s = support(capability);
        if (s.usable()) {
            return;
        }
        String seen = detail(capability);
        String state = s == Support.NOT_SUPPORTED ? "it does not support " : "it could not be shown to support ";
        throw new StoreNotCapableException(capability, this, "hoplock cannot use " + store + " here: " + state
                + capability.description() + (seen.isEmpty() ? "" : ": " + seen) + ". " + why + ".");
    }

    /**
     * Refuses the store for a consumer that acts on what it reads (per-key ownership) when its reads may lag
     * ({@link Reads#MAY_LAG}).
     *
     * @param why why the consumer needs current reads, one sentence, for the message
     * @throws StoreNotCapableException naming the store, why its reads may lag, why the consumer needs them, and the
     *                                  fix (in the report's detail); its {@link StoreNotCapableException#missing()}
     *                                  is null
     */
    public void requireCurrentReads(String why) throws StoreNotCapableException {
        Objects.requireNonNull(why, "why");
        if (reads == Reads.CURRENT) {
            return;
        }
        throw new StoreNotCapableException(null, this, "hoplock cannot use " + store + " here: its reads may miss"
                + " acknowledged writes" + (readsDetail.isEmpty() ? "" : " (" + readsDetail + ")") + ". " + why
                + ".");
    }

    /** A one-line summary for logs and status, for example "create VERIFIED, swap VERIFIED, delete NOT_SUPPORTED". */
    public String summary() {
        return "create " + support(Capability.CONDITIONAL_CREATE) + ", swap " + support(Capability.CONDITIONAL_SWAP)
                + ", delete " + support(Capability.CONDITIONAL_DELETE) + ", handles " + handleForm
                + (durability == null ? "" : ", acknowledged writes " + durability.phrase()
                + (durabilityDetail.isEmpty() ? "" : " (" + durabilityDetail + ")"))
                + (reads == Reads.CURRENT ? "" : ", reads may lag"
                + (readsDetail.isEmpty() ? "" : " (" + readsDetail + ")"));
    }

    /** Builds a {@link StoreCapabilities}; not thread-safe. */
    public static final class Builder {
        private final String store;
        private final EnumMap<Capability, Support> support = new EnumMap<>(Capability.class);
        private final EnumMap<Capability, String> details = new EnumMap<>(Capability.class);
        private String handleForm = HANDLES_AS_RECEIVED;
        private @Nullable Durability durability;
        private String durabilityDetail = "";
        private Reads reads = Reads.CURRENT;
        private String readsDetail = "";

        private Builder(String store) {
            this.store = Objects.requireNonNull(store, "store");
            for (Capability capability : Capability.values()) {
                support.put(capability, Support.ASSUMED);
            }
        }

        /** Sets the support of {@code capability}, with what was seen ("" for nothing). */
        public Builder set(Capability capability, Support support, String detail) {
            this.support.put(Objects.requireNonNull(capability, "capability"),
                    Objects.requireNonNull(support, "support"));
            this.details.put(capability, Objects.requireNonNull(detail, "detail"));
            return this;
        }

        /** Sets how the backend sends handles back to the store. */
        public Builder handleForm(String handleForm) {
            this.handleForm = Objects.requireNonNull(handleForm, "handleForm");
            return this;
        }

        /** Sets what the store promises about acknowledged writes, with what it was read from ("" for nothing). */
        public Builder durability(Durability durability, String detail) {
            this.durability = Objects.requireNonNull(durability, "durability");
            this.durabilityDetail = Objects.requireNonNull(detail, "detail");
            return this;
        }

        /**
         * Sets whether reads see every acknowledged write, with why they may not and the fix ("" for current reads);
         * {@link Reads#CURRENT} until set.
         */
        public Builder reads(Reads reads, String detail) {
            this.reads = Objects.requireNonNull(reads, "reads");
            this.readsDetail = Objects.requireNonNull(detail, "detail");
            return this;
        }

        public StoreCapabilities build() {
            return new StoreCapabilities(store, support, details, handleForm, durability, durabilityDetail, reads,
                    readsDetail);
        }
    }
}
