package dev.hoplock.chaos;

import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.OwnershipClaim;
import dev.hoplock.core.ownership.OwnershipEvent;
import dev.hoplock.core.ownership.OwnershipGroup;
import dev.hoplock.s3.S3Backend;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The {@link Primitive#OWNERSHIP} work of a {@link ChaosNode}: the node is member {@code memberId} (its slot, the same
 * across restarts; the owner id names the process) of the group {@value #GROUP}, and a thread per key (the same keys in
 * every node) opens {@link OwnershipGroup#claim} on it whenever it can, and runs the {@link WorkLoop} on resource
 * {@code key/<key>} with the claim's token while {@link OwnershipClaim#isValid()}, for at most {@code holdMs} per
 * claim (a broken slot, {@code checkLeader=false}: its first claim of each key is never closed and its work on it never
 * stops, whether or not the claim is still valid). Prints {@code ACQUIRED} (with {@code gen=} the token and {@code resource=}) when the node starts acting on a
 * key, or acts on it with a new token, and {@code LOST} when a claim it worked under is no longer valid or no claim can
 * be opened; {@code MEMBERS} at every membership change, {@code PROBLEM} for the group's problems.
 */
final class OwnershipWork {

    /** The ownership group's name. */
    static final String GROUP = "chaos-group";

    private OwnershipWork() {
    }

    static void run(S3Backend backend, ChaosNode.Settings s) throws Exception {
        String owner = s.owner();
        OwnershipGroup group = OwnershipGroup.builder(backend, GROUP).memberId(s.memberId()).owner(owner)
                .address(owner + ":0").ttl(s.ttl()).pollInterval(s.poll()).requestTimeout(s.ttl().dividedBy(3))
                .build();
        group.addListener(event -> {
            String base = " owner=" + owner + " nanos=" + System.nanoTime();
            if (event instanceof OwnershipEvent.MembershipChanged changed) {
                ChaosNode.print("MEMBERS" + base + " epoch=" + changed.epoch() + " members="
                        + changed.current().members().stream().map(Member::id).toList().toString().replace(" ", ""));
            } else if (event instanceof OwnershipEvent.Problem problem) {
                ChaosNode.print("PROBLEM" + base + " message=" + problem.message().replace('\n', ' '));
            }
        });
        group.start();
        s.startedThenPerName((key, resource, work) -> own(group, key, resource, work, s));
        group.close();
    }

    private static void own(OwnershipGroup group, String key, String resource, WorkLoop work,
                            ChaosNode.Settings s) throws IOException {
        boolean acting = false;
        long token = -1;
        while (System.nanoTime() < s.endAt()) {
            // No interrupt on loss: the work loop asks isValid() before every write, as the elector's asks
            // isLeader(); an interrupt would only break the write's JDBC call.
            Optional<OwnershipClaim> opened = group.claim(key, false);
            if (opened.isEmpty()) {
                if (acting) {
                    ChaosNode.print(line("LOST", s.owner(), token, resource) + " cause=no_claim");
                    acting = false;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                continue;
            }
            try (OwnershipClaim claim = opened.get()) {
                if (!acting || claim.token() != token) {
                    token = claim.token();
                    acting = true;
                    ChaosNode.print(line("ACQUIRED", s.owner(), token, resource));
                }
                work.run(resource, token, claim::isValid, s.sessionEnd());
                if (!claim.isValid()) {
                    ChaosNode.print(line("LOST", s.owner(), token, resource) + " cause=claim_invalid");
                    acting = false;
                }
            }
        }
    }

    private static String line(String type, String owner, long token, String resource) {
        return type + " owner=" + owner + " nanos=" + System.nanoTime() + " gen=" + token + " resource=" + resource;
    }
}
