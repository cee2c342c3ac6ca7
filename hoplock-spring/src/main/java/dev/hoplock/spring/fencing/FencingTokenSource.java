package dev.hoplock.spring.fencing;

import org.springframework.aop.Advisor;

import java.lang.reflect.Method;
import java.util.OptionalLong;

/**
 * Where the token of a {@link dev.hoplock.spring.fencing.Fenced} call comes from: whatever made this thread the
 * rightful writer (a {@code @LeaderOnly} gate today; per-key ownership or a named lock later) publishes its token for
 * the duration of the call, and the fence advisor asks for it.
 *
 * <p>Guarantees an implementation must give: {@link #currentToken()} reads thread-local state only (no store
 * request), is empty outside a call of its own, and inside one returns the token that call holds, a value that rises
 * at every change of holder of the thing it gates; {@link #currentHolder()} and {@link #resource(String)} answer for
 * that same token. Thread-safe.
 */
public interface FencingTokenSource {

    /** The token of the innermost call on this thread that this source gates; empty outside such a call. */
    OptionalLong currentToken();

    /** Whether calls of {@code method} on {@code targetClass} run under a token of this source. */
    boolean covers(Method method, Class<?> targetClass);

    /**
     * Whether {@code advisor} is the one that makes the token current, so that the start-up validator can check that
     * it runs before (outside) the fence advisor.
     */
    boolean isTokenAdvisor(Advisor advisor);

    /**
     * The resource the current call's token is checked against, given the one {@code @Fenced} declares: the declared
     * name, unless tokens are scoped finer than the call's gate (per-key ownership: one token sequence per key, so the
     * key is appended, {@code "invoices/org-42"}). A source made of other sources must return the resource of the
     * source whose token {@link #currentToken()} returns (tokens of different sequences are not comparable: checking
     * one key's token against another key's resource refuses a rightful owner).
     */
    default String resource(String declared) {
        return declared;
    }

    /**
     * The holder of the token {@link #currentToken()} returns: a unique id of the process (and term) holding it, the
     * lease's owner id, so that the fence can refuse an equal token of a different holder (tokens repeat when a
     * lease record is deleted from outside and re-created, see {@link dev.hoplock.core.fencing.Fence}). Must be at
     * most 255 characters without control characters. Reads thread-local state only. A source made of other sources
     * must return the holder of the source whose token {@link #currentToken()} returns.
     *
     * <p>The default, for a source that cannot name holders, is empty: the check is then made without a holder and
     * an equal token passes (the older rule), so a stale holder with a repeated token is not refused.
     */
    default String currentHolder() {
        return "";
    }

    /** What supplies tokens, for messages, for example {@code "@LeaderOnly"}. */
    String describe();
}
