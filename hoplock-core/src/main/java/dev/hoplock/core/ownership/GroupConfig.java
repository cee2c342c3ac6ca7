package dev.hoplock.core.ownership;

import dev.hoplock.core.InvalidSettingException;
import dev.hoplock.core.OwnerIds;
import dev.hoplock.core.backend.InMemoryBackend;
import dev.hoplock.core.backend.LeaseKeys;
import dev.hoplock.core.election.Elector;
import dev.hoplock.core.election.ElectorSettings;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The validated settings an {@link OwnershipGroup} runs with, derived from its {@link OwnershipGroup.Builder} in
 * {@link #from}: the timing defaults and checks are the liveness elector's own ({@link ElectorSettings}), so a group
 * accepts exactly the settings its elector accepts and derives the same defaults.
 *
 * <p>Guarantees: a built config has a usable group name, a valid member id and settings the elector accepts; bad
 * input fails with an {@link InvalidSettingException} naming the setting, the value and the fix.
 */
record GroupConfig(String group, String memberId, String address, String owner, Duration ttl, Duration renewInterval,
                   Duration pollInterval, Duration requestTimeout, Duration safetyMargin, Duration releaseTimeout,
                   Set<Defect> defects) {

    /** Test-only defects that break one rule each, so that the simulation proves its checker sees the break. */
    enum Defect {
        /** Breaks M3: a new epoch is settled at once, without acknowledgements or grace. */
        SETTLE_AT_ONCE,
        /** Breaks M2: a view stays usable forever once seen. */
        NO_VIEW_DEADLINE,
        /** Breaks M6: a member is removed after a single read of its lease. */
        HASTY_REMOVAL,
        /** Breaks M1: acting does not need the liveness term. */
        IGNORE_LEASE,
        /**
         * Breaks M3 (issue 19, defect 1): acknowledgements settle epochs of a young (just created) registry, so a
         * member that created it, alone in it, counts as acknowledged by everyone at its next read.
         */
        YOUNG_REGISTRY_SETTLED_BY_ACKS,
        /**
         * Breaks M9 (issue 19, defect 2): a registry at the epoch number of the adopted view is taken as that view and
         * only re-confirms it, whatever its incarnation and members, and the chain looks at epoch numbers only.
         */
        SAME_EPOCH_IS_SAME_VIEW,
        /**
         * Breaks M1 (issue 19, defect 3): the acting check and the chains compare only the lease generation of the
         * registry entry, not the process that wrote it.
         */
        GENERATION_ONLY_REGISTRATION,
        /**
         * Breaks M8 (issue 19, defect 7): a token looks back at most four epochs, so the token of a key that never
         * moved rises after more than four membership changes.
         */
        TOKEN_LOOKS_BACK_FOUR,
        /**
         * Breaks M2's premise: the registry is written and read without its end line (format 1's framing), so a read
         * served torn at a line end decodes as a version the store never held and becomes a view.
         */
        NO_REGISTRY_END_LINE
    }

    boolean has(Defect defect) {
        return defects.contains(defect);
    }

    /**
     * Validates the builder's settings and derives the missing ones.
     *
     * @throws InvalidSettingException naming the setting, the value and the fix
     */
    static GroupConfig from(OwnershipGroup.Builder b) {
        String group = b.group;
        if (group == null || group.isEmpty()) {
            throw new InvalidSettingException("group", OwnershipProblems.emptyGroup());
        }
        try {
            LeaseKeys.validate(MemberKeys.registryKey(group));
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException("group", OwnershipProblems.groupNotUsable(group, e));
        }
        String id = b.memberId != null ? b.memberId : OwnerIds.generate();
        Member member;
        try {
            member = new Member(id, Objects.requireNonNull(b.address, "address"));
        } catch (IllegalArgumentException e) {
            throw new InvalidSettingException("memberId", Objects.requireNonNull(e.getMessage(), "Member states why"));
        }
        String process = b.owner != null ? b.owner : OwnerIds.generate();
        Elector.Builder probe = Elector.builder(new InMemoryBackend(), MemberKeys.memberKey(group, member.id()))
                .owner(process).ttl(b.ttl).releaseTimeout(b.releaseTimeout);
        if (b.renewInterval != null) {
            probe.renewInterval(b.renewInterval);
        }
        if (b.pollInterval != null) {
            probe.pollInterval(b.pollInterval);
        }
        if (b.requestTimeout != null) {
            probe.requestTimeout(b.requestTimeout);
        }
        if (b.safetyMargin != null) {
            probe.safetyMargin(b.safetyMargin);
        }
        ElectorSettings s = probe.settings();
        return new GroupConfig(group, member.id(), member.address(), process, s.ttl(), s.renewInterval(),
                s.pollInterval(), s.requestTimeout(), s.safetyMargin(), s.releaseTimeout(),
                Set.copyOf(b.defects.isEmpty() ? EnumSet.noneOf(Defect.class) : b.defects));
    }
}
