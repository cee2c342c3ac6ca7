package dev.hoplock.redis;

import io.lettuce.core.codec.Base16;

import java.nio.charset.StandardCharsets;

/**
 * The Lua scripts of the four operations. Each names exactly one key ({@code KEYS[1]}, the lease's Redis key), so it
 * runs in a cluster too, and runs atomically on the server: nothing else happens between its check and its write.
 *
 * <p>A lease is a hash with two fields: {@code record}, the lease record's bytes exactly as the elector wrote them
 * (the JSON Go hoplock shares, so {@code HGET <key> record} shows it), and {@code version}, the handle: a random
 * 128-bit id that the backend draws for every write (see {@link RedisBackend}). The scripts use only {@code EXISTS},
 * {@code HMGET}, {@code HGET}, {@code HSET} with several fields (Redis 4.0 or later) and {@code DEL}, and no script
 * flags, so they run on Redis 4 to 8 and Valkey.
 */
enum LeaseScripts {

    /**
     * Read: {@code {}} when the key does not exist, otherwise {@code {record's first ARGV[1] bytes, version}} (a missing
     * field reads as the empty string).
     */
    READ("""
            if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
            local v = redis.call('HMGET', KEYS[1], 'record', 'version')
            return {string.sub(v[1] or '', 1, tonumber(ARGV[1])), v[2] or ''}
            """),

    /**
     * Read as {@link #READ}, and when the key exists, write its version again unchanged: a write of nothing new that
     * still enters the replication stream, so that a {@code WAIT} after it returns only once every write before it
     * (this record's own, by whichever client) has reached the replicas. Used when the backend waits for replicas, so
     * that the elector never adopts or obeys a record that a failover could still lose.
     */
    READ_REPLICATED("""
            if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
            local v = redis.call('HMGET', KEYS[1], 'record', 'version')
            if v[2] then redis.call('HSET', KEYS[1], 'version', v[2]) end
            return {string.sub(v[1] or '', 1, tonumber(ARGV[1])), v[2] or ''}
            """),

    /** Create if absent: 1 written, 0 refused (the key exists). ARGV: record, new version. */
    CREATE("""
            if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
            redis.call('HSET', KEYS[1], 'record', ARGV[1], 'version', ARGV[2])
            return 1
            """),

    /**
     * Compare-and-swap: 1 written, 0 refused (another version), -1 refused (no key). ARGV: record, new version,
     * expected version.
     */
    SWAP("""
            if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
            if redis.call('HGET', KEYS[1], 'version') ~= ARGV[3] then return 0 end
            redis.call('HSET', KEYS[1], 'record', ARGV[1], 'version', ARGV[2])
            return 1
            """),

    /** Conditional delete: 1 deleted, 0 refused (another version), -1 refused (no key). ARGV: expected version. */
    DELETE("""
            if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
            if redis.call('HGET', KEYS[1], 'version') ~= ARGV[1] then return 0 end
            redis.call('DEL', KEYS[1])
            return 1
            """);

    private final byte[] body;
    private final String sha1;

    LeaseScripts(String body) {
        this.body = body.getBytes(StandardCharsets.UTF_8);
        this.sha1 = Base16.digest(this.body);
    }

    /** The script's text, for {@code EVAL}. */
    byte[] body() {
        return body.clone();
    }

    /** The SHA-1 digest of the text, for {@code EVALSHA} (as Redis computes it). */
    String sha1() {
        return sha1;
    }
}
