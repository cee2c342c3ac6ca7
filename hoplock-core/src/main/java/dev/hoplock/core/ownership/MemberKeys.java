package dev.hoplock.core.ownership;

import java.nio.charset.StandardCharsets;

/**
 * The store keys of an ownership group: {@code <group>/registry} and each member's liveness lease
 * {@code <group>/members/<segment>}.
 *
 * <p>Guarantees: every member id maps to one valid key segment, and two different ids never map to the same segment
 * (an id that is not a plain segment, or starts with {@code x-}, is written as {@code x-} followed by the hex of its
 * UTF-8 bytes). Pure functions.
 */
final class MemberKeys {

    private MemberKeys() {
    }

    /** The key of the group's registry record. */
    static String registryKey(String group) {
        return group + "/registry";
    }

    /** The lease key of member {@code id}'s liveness lease. */
    static String memberKey(String group, String id) {
        return group + "/members/" + segment(id);
    }

    /** {@code id} as one key segment: itself when it is one (and does not start with {@code x-}), else hex. */
    static String segment(String id) {
        if (id.matches("[A-Za-z0-9._-]{1,200}") && !id.startsWith("x-") && !id.equals(".") && !id.equals("..")) {
            return id;
        }
        StringBuilder hex = new StringBuilder("x-");
        for (byte b : id.getBytes(StandardCharsets.UTF_8)) {
            hex.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return hex.toString();
    }
}
