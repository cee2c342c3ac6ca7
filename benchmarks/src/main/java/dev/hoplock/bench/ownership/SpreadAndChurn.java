package dev.hoplock.bench.ownership;

import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.MembershipView;
import dev.hoplock.core.ownership.Rendezvous;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Spread and churn of rendezvous ownership, deterministic (fixed key and member names, no randomness, no timing):
 * <ul>
 *   <li>spread: the share of {@code keys} keys each of {@code members} members owns; largest and smallest share;</li>
 *   <li>join: for each member M, the keys that move when M joins the other N-1 (recomputed, not inferred), over the
 *       total, against the ideal 1/N;</li>
 *   <li>leave: for each member M, the keys that move when M leaves the N, over the total, against 1/N.</li>
 * </ul>
 * Prints a Markdown table. Run: {@code java -cp <benchmarks class path> dev.hoplock.bench.ownership.SpreadAndChurn
 * [members=10] [keys=100000]}; with {@code -Dbench.results=DIR} also writes {@code DIR/ownership-spread.properties}
 * for the report.
 */
public final class SpreadAndChurn {

    private SpreadAndChurn() {
    }

    public static void main(String[] args) {
        int memberCount = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int keyCount = args.length > 1 ? Integer.parseInt(args[1]) : 100_000;
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < memberCount; i++) {
            members.add(new Member("member-" + i, "10.0.0." + i + ":8080"));
        }
        String[] keys = new String[keyCount];
        for (int k = 0; k < keyCount; k++) {
            keys[k] = "tenant-" + k;
        }
        MembershipView all = MembershipView.of(1, members);
        Member[] owners = owners(keys, all);

        Map<Member, Integer> shares = new HashMap<>();
        for (Member owner : owners) {
            shares.merge(owner, 1, Integer::sum);
        }
        int largest = shares.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        int smallest = members.stream().mapToInt(m -> shares.getOrDefault(m, 0)).min().orElse(0);

        double ideal = 1.0 / memberCount;
        double minJoin = 1;
        double maxJoin = 0;
        double minLeave = 1;
        double maxLeave = 0;
        for (Member m : members) {
            List<Member> others = new ArrayList<>(members);
            others.remove(m);
            Member[] without = owners(keys, MembershipView.of(2, others));
            // Join: from "without m" to "all". Leave: from "all" to "without m". Both count changed owners.
            double moved = (double) changed(without, owners) / keyCount;
            double movedBack = (double) changed(owners, without) / keyCount;
            minJoin = Math.min(minJoin, moved);
            maxJoin = Math.max(maxJoin, moved);
            minLeave = Math.min(minLeave, movedBack);
            maxLeave = Math.max(maxLeave, movedBack);
        }

        if (System.getProperty("bench.results") != null) {
            java.util.Map<String, Object> summary = new java.util.LinkedHashMap<>();
            summary.put("members", memberCount);
            summary.put("keys", keyCount);
            summary.put("largest", largest);
            summary.put("smallest", smallest);
            summary.put("ratio", (double) largest / smallest);
            summary.put("ideal", ideal);
            summary.put("join.min", minJoin);
            summary.put("join.max", maxJoin);
            summary.put("leave.min", minLeave);
            summary.put("leave.max", maxLeave);
            dev.hoplock.bench.common.Results.writeSummary("ownership-spread.properties", summary);
        }
        System.out.printf(Locale.ROOT, "| measure (%d members, %,d keys) | value |%n|---|---|%n", memberCount, keyCount);
        System.out.printf(Locale.ROOT, "| largest share | %.4f (%,d keys) |%n", (double) largest / keyCount, largest);
        System.out.printf(Locale.ROOT, "| smallest share | %.4f (%,d keys) |%n", (double) smallest / keyCount, smallest);
        System.out.printf(Locale.ROOT, "| largest / smallest | %.3f |%n", (double) largest / smallest);
        System.out.printf(Locale.ROOT, "| ideal share 1/N | %.4f |%n", ideal);
        System.out.printf(Locale.ROOT, "| keys moved / keys total, one member joins (%d to %d), over the %d choices"
                + " of joiner | %.4f to %.4f |%n", memberCount - 1, memberCount, memberCount, minJoin, maxJoin);
        System.out.printf(Locale.ROOT, "| keys moved / keys total, one member leaves (%d to %d), over the %d choices"
                + " of leaver | %.4f to %.4f |%n", memberCount, memberCount - 1, memberCount, minLeave, maxLeave);
    }

    private static Member[] owners(String[] keys, MembershipView view) {
        Member[] owners = new Member[keys.length];
        for (int k = 0; k < keys.length; k++) {
            owners[k] = Rendezvous.owner(keys[k], view).orElseThrow();
        }
        return owners;
    }

    private static int changed(Member[] before, Member[] after) {
        int changed = 0;
        for (int k = 0; k < before.length; k++) {
            changed += before[k].id().equals(after[k].id()) ? 0 : 1;
        }
        return changed;
    }
}
