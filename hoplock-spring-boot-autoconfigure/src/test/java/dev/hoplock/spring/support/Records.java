package dev.hoplock.spring.support;

import dev.hoplock.core.backend.Handle;
import dev.hoplock.core.backend.InMemoryBackend;

import java.nio.charset.StandardCharsets;
import java.time.Instant;

/** Plants lease records, so that a test can make its elector a follower of a holder that does not exist. */
public final class Records {

    private Records() {
    }

    /** Puts a record held by {@code owner} until {@code expiresAt} under {@code key}. */
    public static Handle plantHeld(InMemoryBackend backend, String key, String owner, long generation,
            Instant expiresAt) {
        String json = "{\"generation\":" + generation + ",\"expires_at\":\"" + expiresAt + "\",\"owner\":\"" + owner
                + "\"}";
        return backend.put(key, json.getBytes(StandardCharsets.UTF_8));
    }
}
