package dev.hoplock.spring.actuate;

import dev.hoplock.core.ownership.Member;
import dev.hoplock.spring.ownership.HoplockOwnership;
import org.jspecify.annotations.Nullable;

import java.util.List;

/**
 * The ownership group as this instance sees it, for the {@code hoplock} endpoint and health: read from local state
 * only, no store request, no secret (member ids and addresses are what the members registered).
 *
 * @param group      the group's name
 * @param self       this instance's member id
 * @param state      this instance: {@code member} (registered under its current lease, may own keys),
 *                   {@code joining} (not registered yet, or the view could not be confirmed within the TTL) or
 *                   {@code left}
 * @param epoch      the current membership epoch; null when the members are not known
 * @param members    the members of the current view with their state
 * @param keysSeen   distinct keys this instance checked (at most 10,000 remembered)
 * @param shareOfKeysSeen of those, the share this instance owns in the current view
 */
public record OwnershipDescriptor(String group, String self, String state, @Nullable Long epoch,
                                  List<MemberDescriptor> members, int keysSeen, double shareOfKeysSeen) {

    /**
     * One member.
     *
     * @param id      its member id (hashed)
     * @param address where it can be reached; empty when unknown
     * @param self    whether it is this instance
     * @param state   {@code member} (in the current epoch's registry); for this instance its own state as above
     */
    public record MemberDescriptor(String id, String address, boolean self, String state) {
    }

    public static OwnershipDescriptor of(HoplockOwnership ownership, boolean closed) {
        String selfId = ownership.self().id();
        String state = closed ? "left" : ownership.isMember() ? "member" : "joining";
        List<MemberDescriptor> members = ownership.members().stream()
                .map((Member m) -> new MemberDescriptor(m.id(), m.address(), m.id().equals(selfId),
                        m.id().equals(selfId) ? state : "member"))
                .toList();
        Long epoch = ownership.epoch().isPresent() ? ownership.epoch().getAsLong() : null;
        return new OwnershipDescriptor(ownership.name(), selfId, state, epoch, members, ownership.keysSeen(),
                ownership.shareOfKeysSeen());
    }
}
