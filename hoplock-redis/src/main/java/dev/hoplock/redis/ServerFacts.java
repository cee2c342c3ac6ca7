package dev.hoplock.redis;

import org.jspecify.annotations.Nullable;

import java.util.HashMap;
import java.util.Map;

/**
 * What one primary says about itself, from {@code INFO} and {@code CONFIG GET}: its role, replicas and persistence.
 * Fields the server would not tell (an ACL without {@code +info} or {@code +config|get}, or a managed service that
 * renamed {@code CONFIG}) are null, with the reason in {@link #infoRefused()} or {@link #configRefused()}.
 *
 * @param node               the node, {@code host:port}, for messages
 * @param info               the {@code INFO} fields ({@code role}, {@code connected_slaves}, {@code aof_enabled}, ...);
 *                           empty when {@code INFO} was refused
 * @param appendfsync        {@code CONFIG GET appendfsync}, or null
 * @param minReplicasToWrite {@code CONFIG GET min-replicas-to-write}, or null
 * @param infoRefused        why {@code INFO} gave nothing, or null
 * @param configRefused      why {@code CONFIG GET} gave nothing, or null
 */
record ServerFacts(String node, Map<String, String> info, @Nullable String appendfsync,
        @Nullable Integer minReplicasToWrite, @Nullable String infoRefused, @Nullable String configRefused) {

    ServerFacts {
        info = Map.copyOf(info);
    }

    /** The fields of an {@code INFO} answer: {@code name:value} lines; section headers and blank lines skipped. */
    static Map<String, String> parseInfo(String text) {
        Map<String, String> fields = new HashMap<>();
        for (String line : text.split("\r?\n")) {
            int colon = line.indexOf(':');
            if (!line.startsWith("#") && colon > 0) {
                fields.put(line.substring(0, colon).strip(), line.substring(colon + 1).strip());
            }
        }
        return fields;
    }

    /** {@code master}, {@code slave}, or null when not known. */
    @Nullable String role() {
        return info.get("role");
    }

    boolean isReplica() {
        return "slave".equals(role()) || "replica".equals(role());
    }

    /** The primary a replica follows, {@code host:port}, or "its primary" when not known. */
    String primaryOfReplica() {
        String host = info.get("master_host");
        return host == null ? "its primary" : host + ":" + info.getOrDefault("master_port", "?");
    }

    /** The number of replicas connected, or -1 when not known. */
    int connectedReplicas() {
        try {
            return Integer.parseInt(info.getOrDefault("connected_slaves", "-1"));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** True or false for {@code appendonly}, or null when not known. */
    @Nullable Boolean appendOnly() {
        String aof = info.get("aof_enabled");
        return aof == null ? null : aof.equals("1");
    }

    @Nullable String version() {
        return info.get("redis_version");
    }

    @Nullable String maxmemoryPolicy() {
        return info.get("maxmemory_policy");
    }
}
