package dev.hoplock.core.ownership;

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
 * <p>Format (UTF-8 text, one line each, fields separated by single spaces, texts URL-encoded):
 * <pre>
 * hoplock-registry 1
 * epoch &lt;epoch&gt;
 * seq &lt;seq&gt;
 * member &lt;ack&gt; &lt;generation&gt; &lt;ttl-millis&gt; &lt;id&gt; &lt;owner&gt; &lt;address&gt;
 * </pre>
 */
record Registry(long epoch, long seq, List<Entry> entries) {

    static final String HEADER = "hoplock-registry 1";
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
        entries = List.copyOf(entries.stream().sorted(Comparator.comparing(Entry::id)).toList());
    }

    /** A first registry whose only member is {@code self}, acknowledged at the new epoch. */
    static Registry first(long epoch, Entry self) {
        return new Registry(epoch, 1, List.of(self.acked(epoch)));
    }

    Entry entry(String id) {
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
        return new Registry(next, seq + 1, list);
    }

    /** The next epoch, without member {@code id}. */
    Registry without(String id) {
        List<Entry> list = new ArrayList<>();
        for (Entry e : entries) {
            if (!e.id.equals(id)) {
                list.add(e);
            }
        }
        return new Registry(epoch + 1, seq + 1, list);
    }

    /** The same epoch, with member {@code id} acknowledging it. */
    Registry ack(String id) {
        List<Entry> list = new ArrayList<>();
        for (Entry e : entries) {
            list.add(e.id.equals(id) ? e.acked(epoch) : e);
        }
        return new Registry(epoch, seq + 1, list);
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
        StringBuilder out = new StringBuilder(64 + 96 * entries.size());
        out.append(HEADER).append('\n');
        out.append("epoch ").append(epoch).append('\n');
        out.append("seq ").append(seq).append('\n');
        for (Entry e : entries) {
            out.append("member ").append(e.ack).append(' ').append(e.generation).append(' ').append(e.ttlMillis)
                    .append(' ').append(enc(e.id)).append(' ').append(enc(e.owner)).append(' ')
                    .append(enc(e.address)).append('\n');
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** Parses a registry; throws {@link IllegalArgumentException} naming what is wrong. */
    static Registry decode(byte[] bytes) {
        if (bytes.length > MAX_SIZE) {
            throw new IllegalArgumentException("registry object is larger than " + MAX_SIZE + " bytes");
        }
        String[] lines = new String(bytes, StandardCharsets.UTF_8).split("\n");
        if (lines.length < 3 || !lines[0].equals(HEADER)) {
            throw new IllegalArgumentException("not a hoplock registry (expected the line '" + HEADER + "' first)");
        }
        long epoch = number(lines[1], "epoch");
        long seq = number(lines[2], "seq");
        List<Entry> entries = new ArrayList<>();
        for (int i = 3; i < lines.length; i++) {
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
        return new Registry(epoch, seq, entries);
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
