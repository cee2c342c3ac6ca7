package dev.hoplock.core.ownership;

import java.util.Objects;

/**
 * One member of an ownership group: {@code id} is its stable identity, the only part that is hashed, and
 * {@code address} is where other members can reach it (for forwarding work to a key's owner); the address is never
 * hashed, so it can change without moving any key.
 *
 * <p>Guarantees: {@code id} is non-empty, well-formed UTF-16 text (no unpaired surrogate, so that its UTF-8 bytes,
 * which are hashed, are the same in Java and Go); {@code address} is non-null and may be empty (no address known).
 *
 * <p>Equality is the record's: by id <em>and</em> address. Two members with one id and different addresses are
 * different values; a {@link MembershipView} refuses to hold both (ids are unique in a view), rather than keeping one
 * of them silently.
 *
 * @param id      stable identity, hashed; for example a pod name or a persistent node id
 * @param address how to reach the member (host:port, URL...); not hashed; empty when unknown
 */
public record Member(String id, String address) {

    public Member {
        Objects.requireNonNull(id, "member id is null: give every member a stable, non-empty id");
        Objects.requireNonNull(address, () -> "address of member '" + id + "' is null: pass \"\" when it has none");
        if (id.isEmpty()) {
            throw new IllegalArgumentException(
                    "member id is empty: give every member a stable, non-empty id (its pod name, a node id)");
        }
        Utf8.requireWellFormed("member id", id);
    }

    /** A member with no known address. */
    public static Member of(String id) {
        return new Member(id, "");
    }
}
