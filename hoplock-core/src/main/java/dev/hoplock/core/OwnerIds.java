package dev.hoplock.core;

import java.net.InetAddress;
import java.security.SecureRandom;
import java.util.HexFormat;

/** Generates owner ids that are unique per process: {@code host:pid:random}. */
public final class OwnerIds {

    private static final SecureRandom RANDOM = new SecureRandom();

    private OwnerIds() {
    }

    /** A new id of the form {@code host:pid:6 hex digits}. */
    public static String generate() {
        return hostName() + ":" + ProcessHandle.current().pid() + ":" + randomHex(3);
    }

    /** {@code bytes} random bytes as lower-case hex digits: the nonces written into lease records. */
    public static String randomHex(int bytes) {
        byte[] buffer = new byte[bytes];
        RANDOM.nextBytes(buffer);
        return HexFormat.of().formatHex(buffer);
    }

    private static String hostName() {
        String env = System.getenv("HOSTNAME");
        if (env != null && !env.isBlank()) {
            return env.trim();
        }
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (Exception e) {
            return "localhost";
        }
    }
}
