package dev.hoplock.core.ownership;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * An immutable member list as one membership saw it at one version: what every ownership answer is computed over.
 *
 * <p>Guarantees: the members are non-null with unique ids (a list that names one id twice is refused, whatever the
 * addresses, since which of the two owns a key would otherwise depend on the list's order); {@link #members()} is
 * unmodifiable and sorted by id in UTF-8 byte order, so two views of the same set are equal whatever order they were
 * given in. An empty view is valid and means "no owner for any key" (fail closed).
 *
 * <p>The version is the membership's: it identifies this list among the lists a membership publishes (it rises at
 * every change). {@link OwnerCache} keys its cache on the view instance, so a membership returns the same instance
 * while its members do not change.
 */
public final class MembershipView {

    private final long version;
    private final List<Member> members;
    private final byte[][] ids;

    private MembershipView(long version, Member[] sorted, byte[][] ids) {
        this.version = version;
        this.members = Collections.unmodifiableList(Arrays.asList(sorted));
        this.ids = ids;
    }

    /**
     * A view of {@code members} at {@code version}.
     *
     * @throws IllegalArgumentException when two members share an id
     * @throws NullPointerException     when {@code members} or one of them is null
     */
    public static MembershipView of(long version, Collection<Member> members) {
        Objects.requireNonNull(members, "members is null: pass an empty collection for no members");
        List<Entry> entries = new ArrayList<>(members.size());
        for (Member member : members) {
            Objects.requireNonNull(member, "the member list holds a null member");
            entries.add(new Entry(member, member.id().getBytes(StandardCharsets.UTF_8)));
        }
        entries.sort((a, b) -> Ranking.compareIds(a.id, b.id));
        Member[] sorted = new Member[entries.size()];
        byte[][] ids = new byte[entries.size()][];
        for (int i = 0; i < sorted.length; i++) {
            Entry entry = entries.get(i);
            if (i > 0 && Arrays.equals(ids[i - 1], entry.id)) {
                throw new IllegalArgumentException("member id '" + entry.member.id() + "' appears twice in the member"
                        + " list (" + sorted[i - 1] + " and " + entry.member + "): ids must be unique, give each"
                        + " instance its own stable id");
            }
            sorted[i] = entry.member;
            ids[i] = entry.id;
        }
        return new MembershipView(version, sorted, ids);
    }

    /** A view with no member, at {@code version}: no key has an owner. */
    public static MembershipView empty(long version) {
        return new MembershipView(version, new Member[0], new byte[0][]);
    }

    /** The membership's version of this list. */
    public long version() {
        return version;
    }

    /** The members, unmodifiable, sorted by id (UTF-8 byte order), ids unique. */
    public List<Member> members() {
        return members;
    }

    public boolean isEmpty() {
        return members.isEmpty();
    }

    public int size() {
        return members.size();
    }

    /** The member with this id, if it is in the view. */
    public Optional<Member> member(String id) {
        Objects.requireNonNull(id, "id is null");
        for (Member member : members) {
            if (member.id().equals(id)) {
                return Optional.of(member);
            }
        }
        return Optional.empty();
    }

    /** The UTF-8 bytes of the id of member {@code index}; not to be modified. */
    byte[] idBytes(int index) {
        return ids[index];
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MembershipView view && view.version == version && view.members.equals(members);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(version) * 31 + members.hashCode();
    }

    @Override
    public String toString() {
        return "MembershipView{version=" + version + ", members=" + members + "}";
    }

    private record Entry(Member member, byte[] id) {
    }
}
