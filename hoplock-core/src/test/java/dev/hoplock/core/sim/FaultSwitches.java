package dev.hoplock.core.sim;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Parses the fault switches of a simulation ({@code -Dhoplock.sim.faults}, {@code -Dhoplock.membership.faults}):
 * {@code all} (also when unset or blank), {@code none}, or a comma-separated list of fault names in any case, with
 * {@code -} for {@code _} (such as {@code sync-answers,suspend}). Every simulation's fault enum parses through here,
 * so the switches read the same everywhere. An unknown name fails naming the known ones.
 */
final class FaultSwitches {

    private FaultSwitches() {
    }

    static <E extends Enum<E>> Set<E> parse(Class<E> kinds, String spec) {
        if (spec == null || spec.isBlank() || spec.equals("all")) {
            return EnumSet.allOf(kinds);
        }
        Set<E> set = EnumSet.noneOf(kinds);
        if (spec.equals("none")) {
            return set;
        }
        for (String name : spec.split(",")) {
            String constant = name.trim().toUpperCase(Locale.ROOT).replace('-', '_');
            try {
                set.add(Enum.valueOf(kinds, constant));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("unknown fault '" + name.trim() + "'; known: all, none, "
                        + EnumSet.allOf(kinds).toString().toLowerCase(Locale.ROOT).replace('_', '-'), e);
            }
        }
        return set;
    }

    /** The switch that {@link #parse} reads as {@code set}. */
    static <E extends Enum<E>> String spec(Class<E> kinds, Set<E> set) {
        if (set.equals(EnumSet.allOf(kinds))) {
            return "all";
        }
        if (set.isEmpty()) {
            return "none";
        }
        StringBuilder out = new StringBuilder();
        for (E e : set) {
            out.append(out.length() == 0 ? "" : ",").append(e.name().toLowerCase(Locale.ROOT).replace('_', '-'));
        }
        return out.toString();
    }
}
