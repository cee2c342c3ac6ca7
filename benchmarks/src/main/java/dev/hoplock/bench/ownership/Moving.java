package dev.hoplock.bench.ownership;

import dev.hoplock.core.ownership.Member;
import dev.hoplock.core.ownership.MembershipView;
import dev.hoplock.core.ownership.Rendezvous;
import org.jspecify.annotations.Nullable;

import java.util.ArrayList;
import java.util.List;

/**
 * The keys that move at one membership change, for the scale benches: keys {@code moved-0}, {@code moved-1}, ... whose
 * owner under the members before the change is a departing member, or, for a join, whose owner after it is the
 * joiner. Found before the change, so that the settle time covers the keys that actually change hands (a fixed sample
 * of 200 keys holds about 0.2 keys of one member among 1,000).
 */
final class Moving {

    private Moving() {
    }

    static List<String> find(List<String> before, List<String> departing, @Nullable String joining, int count) {
        MembershipView view = MembershipView.of(0, before.stream().map(Member::of).toList());
        List<String> found = new ArrayList<>();
        for (int k = 0; found.size() < count && k < 10_000_000; k++) {
            String key = "moved-" + k;
            String owner = Rendezvous.owner(key, view).orElseThrow().id();
            boolean moves;
            if (joining != null) {
                moves = Rendezvous.owner(key, List.of(Member.of(owner), Member.of(joining))).orElseThrow().id()
                        .equals(joining);
            } else {
                moves = departing.contains(owner);
            }
            if (moves) {
                found.add(key);
            }
        }
        return found;
    }
}
