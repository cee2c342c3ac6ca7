package dev.hoplock.s3.process;

import dev.hoplock.core.election.ElectionEvent;
import dev.hoplock.test.process.KeyValueLine;

import java.util.Map;

/**
 * The line protocol between {@link ElectorProcessMain} and the test: {@code type=ACQUIRED owner=a generation=3
 * at=<epoch ms> expires=<epoch ms>}, fields separated by single spaces, values without spaces.
 */
record EventLine(Map<String, String> fields) {

    static String of(String owner, ElectionEvent event) {
        StringBuilder line = new StringBuilder();
        if (event instanceof ElectionEvent.Acquired acquired) {
            line.append("type=ACQUIRED generation=").append(acquired.lease().generation())
                    .append(" expires=").append(acquired.lease().expiresAt().toEpochMilli());
        } else if (event instanceof ElectionEvent.Renewed renewed) {
            line.append("type=RENEWED generation=").append(renewed.lease().generation())
                    .append(" expires=").append(renewed.lease().expiresAt().toEpochMilli());
        } else if (event instanceof ElectionEvent.Lost lost) {
            line.append("type=LOST generation=").append(lost.lease() == null ? -1 : lost.lease().generation())
                    .append(" cause=").append(lost.cause());
        } else if (event instanceof ElectionEvent.LeaderObserved observed) {
            line.append("type=OBSERVED holder=")
                    .append(observed.holder().map(h -> h.owner().isEmpty() ? "-" : h.owner()).orElse("-"))
                    .append(" generation=").append(observed.holder().map(h -> h.generation()).orElse(-1L));
        } else if (event instanceof ElectionEvent.Problem problem) {
            line.append("type=PROBLEM kind=").append(problem.kind());
        }
        return line.append(" owner=").append(owner).append(" at=").append(event.at().toEpochMilli()).toString();
    }

    /** Parses a line; a line that is not {@code key=value} fields yields a record with only {@code raw}. */
    static EventLine parse(String line) {
        return new EventLine(KeyValueLine.parse(line).fields());
    }

    String type() {
        return fields.getOrDefault("type", "");
    }

    String owner() {
        return fields.getOrDefault("owner", "");
    }

    long number(String field) {
        return Long.parseLong(fields.get(field));
    }

    boolean is(String type) {
        return type().equals(type);
    }
}
