package dev.hoplock.core.ownership;

import org.jspecify.annotations.Nullable;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;

/**
 * The membership record of one group, stored under {@code <group>/registry}: the membership epoch and one entry per
 * member. Every change of the member set raises the epoch by one; an acknowledgement changes only the acknowledging
 * member's {@code ack}; every write raises {@code seq}, so no two versions have the same bytes.
 *
 * <p>The {@code incarnation} names one life of the record: chosen at random when a member creates the record and
 * carried unchanged by every later write, so a registry deleted and re-created (even at the same epoch number, with
 * the same members) is recognisable as another registry (rule M9). A {@code young} incarnation is one for which no
 * member has yet shown that a whole TTL has passed since its creation: the members of a deleted registry may still act
 * under their old views, and no acknowledgement written in it settles an epoch (rule M3).
 *
 * <p>Format 2 (UTF-8 text, one line each, fields separated by single spaces, texts URL-encoded):
 * <pre>
 * hoplock-registry 2
 * epoch &lt;epoch&gt;
 * seq &lt;seq&gt;
 * incarnation &lt;id&gt; young|settled
 * member &lt;ack&gt; &lt;generation&gt; &lt;ttl-millis&gt; &lt;id&gt; &lt;owner&gt; &lt;address&gt;
 * end &lt;crc32c of every byte before this line, 8 hex digits&gt;
 * </pre>
 * The {@code incarnation} line is optional: a record without it (written before incarnations existed) reads as the
 * incarnation {@code ""}, not young, and later writes keep it so. Readers older than the line refuse a record that has
 * it (the registry is then unreadable to them: they own nothing until upgraded; fail closed).
 * The end line ({@link RegistrySeal}) makes a version self-delimiting: a read that a store served torn (the first
 * bytes of a longer version, as S3Mock does) is refused instead of decoding as a version the store never held.
 * Format 1 (the same without the end line) still reads, so that a rolling upgrade works; every write is format 2.
 */
record Registry(long epoch, long seq, String incarnation, boolean young, List<Entry> entries) {

    static final String HEADER = "hoplock-registry 2";
    private static final String FORMER_HEADER = "hoplock-registry 1";
    private static final String INCARNATION = "incarnation ";
    static final int MAX_SIZE = 4 * 1024 * 1024;

    /**
     * One member as registered.
     *
     * @param id         the member id (hashed)
     * @param address    the member's address (not hashed)
     * @param owner      the process (the owner id of its member-lease elector) that registered it
     * @param generation the generation of that process's member lease when it registered: the term it may act in
     * @param ack        the highest epoch this member acknowledged: it acts under no earlier epoch any more
     * @param ttlMillis  the TTL of its member lease
     */
    record Entry(String id, String address, String owner, long generation, long ack, long ttlMillis) {
        Entry {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(address, "address");
            Objects.requireNonNull(owner, "owner");
        }

        Entry acked(long epoch) {
            return new Entry(id, address, owner, generation, epoch, ttlMillis);
        }

        Member member() {
            return new Member(id, address);
        }
    }

    Registry {
        Objects.requireNonNull(incarnation, "incarnation");
        entries = List.copyOf(entries.stream().sorted(Comparator.comparing(Entry::id)).toList());
    }

    /** A registry of the incarnation {@code ""} (a record written before incarnations existed). */
    Registry(long epoch, long seq, List<Entry> entries) {
        this(epoch, seq, "", false, entries);
    }

    /**
     * A first registry of a new, young incarnation {@code incarnation} whose only member is {@code self},
     * acknowledged at the new epoch.
     */
    static Registry first(long epoch, Entry self, String incarnation) {
        if (incarnation.isEmpty()) {
            throw new IllegalArgumentException("a created registry needs an incarnation id");
        }
        return new Registry(epoch, 1, incarnation, true, List.of(self.acked(epoch)));
    }

    /** The same version with other entries (same epoch, incarnation and age, next seq). */
    Registry withEntries(List<Entry> list) {
        return new Registry(epoch, seq + 1, incarnation, young, list);
    }

    /** Rule M3: the same epoch, recording that a whole TTL has passed since this incarnation was created. */
    Registry grownUp() {
        return new Registry(epoch, seq + 1, incarnation, false, entries);
    }

    /** Rule M9: true when {@code other} is a version of the same life of the record (not a re-created one). */
    boolean sameIncarnation(Registry other) {
        return incarnation.equals(other.incarnation);
    }

    /**
     * Rule M9: true when {@code other} provably shows the same view as this version: the same incarnation, the same
     * epoch and the same registrations (member ids, processes and lease generations). Acknowledgements, addresses and
     * the age of the incarnation may differ.
     */
    boolean sameViewAs(Registry other) {
        if (epoch != other.epoch || !sameIncarnation(other) || entries.size() != other.entries.size()) {
            return false;
        }
        for (int i = 0; i < entries.size(); i++) {
            Entry a = entries.get(i);
            Entry b = other.entries.get(i);
            if (!a.id.equals(b.id) || !a.owner.equals(b.owner) || a.generation != b.generation) {
                return false;
            }
        }
        return true;
    }

    @Nullable Entry entry(String id) {
        for (Entry e : entries) {
            if (e.id.equals(id)) {
                return e;
            }
        }
        return null;
    }

    /** The next epoch, with {@code self} (re)registered and acknowledged at it. */
    Registry join(Entry self) {
        long next = epoch + 1;
        List<Entry> list = new ArrayList<>();
        for (Entry e : entries) {
            if (!e.id.equals(self.id)) {
                list.add(e);
            }
        }
        list.add(self.acked(next));
        return new Registry(next, seq + 1, incarnation, young, list);
    }

    /** The next epoch, without member {@code id}. */
    Registry without(String id) {
        List<Entry> list = new ArrayList<>();
        for (Entry e : entries) {
            if (!e.id.equals(id)) {
                list.add(e);
            }
        }
        return new Registry(epoch + 1, seq + 1, incarnation, young, list);
    }

    /** The same epoch, with member {@code id} acknowledging it. */
    Registry ack(String id) {
        List<Entry> list = new ArrayList<>();
        for (Entry e : entries) {
            list.add(e.id.equals(id) ? e.acked(epoch) : e);
        }
        return withEntries(list);
    }

    /** True when every member other than {@code selfId} has acknowledged this epoch. */
    boolean acknowledgedByAllBut(String selfId) {
        for (Entry e : entries) {
            if (!e.id.equals(selfId) && e.ack < epoch) {
                return false;
            }
        }
        return true;
    }

    MembershipView view() {
        List<Member> members = new ArrayList<>(entries.size());
        for (Entry e : entries) {
            members.add(e.member());
        }
        return MembershipView.of(epoch, members);
    }

    byte[] encode() {
        return encode(true);
    }

    /**
     * {@link #encode()}, or with {@code withEnd} false (only for the planted defect
     * {@link GroupConfig.Defect#NO_REGISTRY_END_LINE}) without the end line.
     */
    byte[] encode(boolean withEnd) {
        StringBuilder out = new StringBuilder(64 + 96 * entries.size());
        out.append(HEADER).append('\n');
        out.append("epoch ").append(epoch).append('\n');
        out.append("seq ").append(seq).append('\n');
        if (!incarnation.isEmpty()) {
            out.append(INCARNATION).append(enc(incarnation)).append(young ? " young" : " settled").append('\n');
        }
        for (Entry e : entries) {
            out.append("member ").append(e.ack).append(' ').append(e.generation).append(' ').append(e.ttlMillis)
                    .append(' ').append(enc(e.id)).append(' ').append(enc(e.owner)).append(' ')
                    .append(enc(e.address)).append('\n');
        }
        byte[] body = out.toString().getBytes(StandardCharsets.UTF_8);
        return withEnd ? RegistrySeal.seal(body) : body;
    }

    /**
     * Parses a registry; throws {@link IllegalArgumentException} naming what is wrong, a
     * {@link RegistrySeal.TornRegistryException} when the bytes are not one whole version (a torn read).
     */
    static Registry decode(byte[] bytes) {
        return decode(bytes, true);
    }

    /**
     * {@link #decode(byte[])}, or with {@code checkEnd} false (only for the planted defect
     * {@link GroupConfig.Defect#NO_REGISTRY_END_LINE}) as format 1 was read: no end line is required (one present is
     * skipped), so a version cut at a line end decodes.
     */
    static Registry decode(byte[] bytes, boolean checkEnd) {
        if (bytes.length > MAX_SIZE) {
            throw new IllegalArgumentException("registry object is larger than " + MAX_SIZE + " bytes");
        }
        String text = new String(bytes, StandardCharsets.UTF_8);
        // Format 1 (no end line, written before it existed) still reads, for a rolling upgrade: the first write
        // of a member of this version turns the record into format 2. A torn read of a format 2 version never looks
        // like format 1 (the header comes first).
        boolean formatOne = text.startsWith(FORMER_HEADER + "\n");
        if (!formatOne && !text.startsWith(HEADER + "\n")) {
            throw new IllegalArgumentException("not a hoplock registry (expected the line '" + HEADER + "' first)");
        }
        byte[] body = checkEnd && !formatOne ? RegistrySeal.open(bytes) : bytes;
        String[] lines = new String(body, StandardCharsets.UTF_8).split("\n");
        if (!checkEnd && lines.length > 0 && lines[lines.length - 1].startsWith("end ")) {
            lines = java.util.Arrays.copyOf(lines, lines.length - 1);
        }
        if (lines.length < 3) {
            throw new IllegalArgumentException("registry lines 'epoch' and 'seq' are missing");
        }
        long epoch = number(lines[1], "epoch");
        long seq = number(lines[2], "seq");
        String incarnation = "";
        boolean young = false;
        int first = 3;
        if (lines.length > 3 && lines[3].startsWith(INCARNATION)) {
            String[] f = lines[3].split(" ", -1);
            if (f.length != 3 || !(f[2].equals("young") || f[2].equals("settled")) || f[1].isEmpty()
                    || f[1].equals("~")) {
                throw new IllegalArgumentException("registry line 4 is not an incarnation line ('incarnation <id>"
                        + " young|settled')");
            }
            incarnation = dec(f[1]);
            young = f[2].equals("young");
            first = 4;
        }
        List<Entry> entries = new ArrayList<>();
        for (int i = first; i < lines.length; i++) {
            String[] f = lines[i].split(" ", -1);
            if (f.length != 7 || !f[0].equals("member")) {
                throw new IllegalArgumentException("registry line " + (i + 1) + " is not a member line");
            }
            try {
                entries.add(new Entry(dec(f[4]), dec(f[6]), dec(f[5]), Long.parseLong(f[2]), Long.parseLong(f[1]),
                        Long.parseLong(f[3])));
            } catch (RuntimeException e) {
                throw new IllegalArgumentException("registry line " + (i + 1) + " is malformed: " + e.getMessage(), e);
            }
        }
        return new Registry(epoch, seq, incarnation, young, entries);
    }

    private static long number(String line, String name) {
        if (!line.startsWith(name + " ")) {
            throw new IllegalArgumentException("registry line '" + name + "' is missing");
        }
        try {
            return Long.parseLong(line.substring(name.length() + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("registry line '" + name + "' is not a number", e);
        }
    }

    private static String enc(String text) {
        return text.isEmpty() ? "~" : URLEncoder.encode(text, StandardCharsets.UTF_8);
    }

    private static String dec(String text) {
        return text.equals("~") ? "" : URLDecoder.decode(text, StandardCharsets.UTF_8);
    }
}
