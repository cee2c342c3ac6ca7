package dev.hoplock.chaos;

import dev.hoplock.chaos.FencingLog.Attempt;

import java.util.List;

/** What the downstream store of a chaos run saw: every append attempt, accepted or refused, and when. */
interface WriteHistory {

    /** Every attempt so far: accepted ones and those refused as stale, with the writer's monotonic readings. */
    List<Attempt> attempts() throws Exception;

    /** The monotonic time of the first accepted append after {@code sinceNanos}, or -1 if there is none yet. */
    long firstAcceptedAfter(long sinceNanos) throws Exception;
}
