package dev.hoplock.redis;

import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What one server (a primary, or one of its replicas) says about itself, from {@code INFO} and {@code CONFIG GET}: its
 * role, replicas and persistence. Fields the server would not tell (an ACL without {@code +info} or
 * {@code +config|get}, or a managed service that renamed {@code CONFIG}) are null, with the reason in
 * {@link #infoRefused()} or {@link #configRefused()}; a replica that could not be reached at all has its reason in
 * {@link #infoRefused()} too.
 *
 * @param node               the node, {@code host:port}, for messages
 * @param info               the {@code INFO} fields ({@code role}, {@code connected_slaves}, {@code aof_enabled}, ...);
 *                           empty when {@code INFO} was refused
 * @param appendfsync        {@code CONFIG GET appendfsync}, or null
 * @param minReplicasToWrite {@code CONFIG GET min-replicas-to-write}, or null
 * @param infoRefused        why {@code INFO} gave nothing, or null
 * @param configRefused      why {@code CONFIG GET} gave nothing, or null
 * @param replicas           for a primary, what each replica it lists ({@link #replicaAddresses()}) says about
 *                           itself, read over a connection of its own; empty for a replica or when none is connected
 */
record ServerFacts(String node, Map<String, String> info, @Nullable String appendfsync,
        @Nullable Integer minReplicasToWrite, @Nullable String infoRefused, @Nullable String configRefused,
        List<ServerFacts> replicas) {

    ServerFacts {
        info = Map.copyOf(info);
        replicas = List.copyOf(replicas);
    }

    ServerFacts(String node, Map<String, String> info, @Nullable String appendfsync,
            @Nullable Integer minReplicasToWrite, @Nullable String infoRefused, @Nullable String configRefused) {
        this(node, info, appendfsync, minReplicasToWrite, infoRefused, configRefused, List.of());
    }

    /** A replica that could not be asked at all (no connection, or refused), with the reason. */
    static ServerFacts unreadable(String node, String reason) {
        return new ServerFacts(node, Map.of(), null, null, reason, null);
    }

    /** These facts with the replicas' own. */
    ServerFacts withReplicas(List<ServerFacts> read) {
        return new ServerFacts(node, info, appendfsync, minReplicasToWrite, infoRefused, configRefused, read);
    }

    /** A replica as a primary lists it in {@code INFO replication}. */
    record ReplicaAddress(String host, int port) {
        @Override
        public String toString() {
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    /**
     * The replicas this primary lists ({@code slave0:ip=10.0.0.2,port=6379,state=online,...}), in order; entries
     * without an address are skipped (then fewer than {@link #connectedReplicas()} are listed).
     */
    List<ReplicaAddress> replicaAddresses() {
        List<ReplicaAddress> addresses = new ArrayList<>();
        int count = Math.max(connectedReplicas(), 0);
        for (int i = 0; i < count; i++) {
            String entry = info.get("slave" + i);
            if (entry == null) {
                continue;
            }
            String host = null;
            Integer port = null;
            for (String pair : entry.split(",")) {
                int eq = pair.indexOf('=');
                if (eq > 0 && pair.substring(0, eq).equals("ip")) {
                    host = pair.substring(eq + 1);
                } else if (eq > 0 && pair.substring(0, eq).equals("port")) {
                    try {
                        port = Integer.valueOf(pair.substring(eq + 1));
                    } catch (NumberFormatException e) {
                        port = null;
                    }
                }
            }
            if (host != null && !host.isEmpty() && port != null) {
                addresses.add(new ReplicaAddress(host, port));
            }
        }
        return addresses;
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
