package dev.hoplock.redis;

import dev.hoplock.core.backend.BackendException;
import dev.hoplock.core.backend.BackendException.Kind;
import dev.hoplock.core.backend.CallBudget;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import org.jspecify.annotations.Nullable;

import java.util.Locale;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;

/**
 * The one place that turns a Lettuce failure into a {@link BackendException} whose kind and message say what happened
 * and what to do. Server errors are told apart by their error code (the first word of the reply: {@code NOPERM},
 * {@code READONLY}, {@code WRONGPASS}, ...), which Redis and Valkey share.
 *
 * <p>Guarantees: every message names the store ({@link RedisTarget#describe()}, never credentials) and, for a write,
 * says whether the outcome is unknown or nothing was written; server and client text is passed through
 * {@link Redaction}, so the password never reaches a message.
 */
final class RedisErrors {

    /**
     * The commands hoplock's user needs: the scripts, the commands the scripts call (Redis 7 checks those too), WAIT,
     * and INFO and CONFIG GET for the start-up check (without them it still runs, but promises no durability).
     */
    static final String COMMANDS = "+eval +evalsha +exists +hget +hmget +hset +del +wait +info +config|get";

    private final String store;
    private final KeyPrefix prefix;
    private final Redaction redaction;

    RedisErrors(String store, KeyPrefix prefix, Redaction redaction) {
        this.store = store;
        this.prefix = prefix;
        this.redaction = redaction;
    }

    String store() {
        return store;
    }

    String clean(@Nullable String text) {
        return redaction.clean(text);
    }

    /** A failure to open a connection (or to wait for one): nothing was sent. */
    BackendException connecting(Throwable failure, CallBudget budget) {
        Throwable e = unwrap(failure);
        String code = serverCode(e);
        if (code.equals("WRONGPASS") || code.equals("NOAUTH") || code.equals("NOPERM") || mentionsAuth(e)) {
            return accessDenied(code, e, "connect");
        }
        String text = chain(e);
        if (text.contains("DB index is out of range")) {
            return new BackendException(Kind.MISCONFIGURED, "cannot use " + store + ": the server has no such"
                    + " database (" + text + "). Name a database the server has in the URI (/0 to /15 with Redis's"
                    + " default 'databases 16'), or raise 'databases' in redis.conf; nothing was sent", failure);
        }
        if (e instanceof TimeoutException || e instanceof RedisCommandTimeoutException) {
            return new BackendException(Kind.UNREACHABLE, "cannot connect to " + store + ": no connection within "
                    + budget.budget().toMillis() + " ms; check the host and port, that the server runs and that no"
                    + " firewall drops the connection; nothing was sent", failure);
        }
        return new BackendException(Kind.UNREACHABLE, "cannot connect to " + store + ": " + chain(e) + "; check the"
                + " host and port, that the server runs and accepts connections from this host; nothing was sent",
                failure);
    }

    /**
     * A failure of a command. {@code change} is true for a write or delete, whose outcome is then unknown unless the
     * server said that it did nothing.
     */
    BackendException executing(Throwable failure, String operation, @Nullable String key, CallBudget budget,
            boolean change) {
        Throwable e = unwrap(failure);
        String target = target(operation, key);
        String unknown = change ? "; the outcome is unknown" : "";
        String nothing = change ? "; nothing was written" : "";
        if (e instanceof TimeoutException || e instanceof RedisCommandTimeoutException
                || e instanceof CancellationException) {
            return new BackendException(Kind.TRANSIENT, "no answer from " + store + " to the " + target + " within "
                    + budget.budget().toMillis() + " ms" + unknown, failure);
        }
        if (e instanceof RedisConnectionException) {
            return connecting(failure, budget);
        }
        String code = serverCode(e);
        String text = clean(e.getMessage());
        switch (code) {
            case "NOPERM":
                return new BackendException(Kind.ACCESS_DENIED, "the Redis user may not run the " + target + " on "
                        + store + " (" + text + "); grant it what hoplock needs: ACL SETUSER <user> " + acl()
                        + nothing, failure);
            case "WRONGPASS", "NOAUTH":
                return accessDenied(code, e, "run the " + target);
            case "READONLY":
                return new BackendException(Kind.TRANSIENT, store + " is a read-only replica now (READONLY), so it"
                        + " refused the " + target + nothing + ". Point hoplock at the primary (or at the Sentinels:"
                        + " redis-sentinel://...), or wait: during a failover this passes once the client reconnects"
                        + " to the new primary", failure);
            case "WRONGTYPE":
                return new BackendException(Kind.MISCONFIGURED, "the " + target + " on " + store + " found a value"
                        + " that hoplock did not write (not a hash with the fields record and version): another"
                        + " program uses keys under the prefix '" + prefix + "'; give hoplock a prefix of its own"
                        + " (prefix)" + nothing, failure);
            case "NOREPLICAS":
                return new BackendException(Kind.TRANSIENT, store + " refused the " + target + " because fewer"
                        + " replicas than its min-replicas-to-write are connected (NOREPLICAS)" + nothing, failure);
            case "NOSCRIPT", "LOADING", "BUSY", "MASTERDOWN", "TRYAGAIN", "CLUSTERDOWN", "MOVED", "ASK", "OOM":
                return new BackendException(Kind.TRANSIENT, store + " did not run the " + target + " (" + text + ")"
                        + nothing, failure);
            default:
                break;
        }
        if (isUnknownCommand(text)) {
            return new BackendException(Kind.MISCONFIGURED, store + " does not know a command hoplock needs for the "
                    + target + " (" + text + "): hoplock needs EVAL and EVALSHA (Lua scripts, Redis 4 or later);"
                    + " are they renamed or disabled with rename-command?" + nothing, failure);
        }
        if (isScriptKeyRefusal(text)) {
            return new BackendException(Kind.ACCESS_DENIED, "the Redis user may not run a command or access the key of"
                    + " the " + target + " on " + store + " (" + text + "); grant it the keys under the prefix and the"
                    + " commands the scripts call: ACL SETUSER <user> "
                    + acl() + nothing, failure);
        }
        if (e instanceof RedisCommandExecutionException) {
            return new BackendException(Kind.TRANSIENT, store + " answered the " + target + " with an error: " + text
                    + unknown, failure);
        }
        return new BackendException(Kind.TRANSIENT, "the " + target + " on " + store + " failed: " + chain(e)
                + unknown, failure);
    }

    /** The ACL rules hoplock needs, for messages. */
    String acl() {
        return "on " + prefix.aclPattern() + " " + COMMANDS;
    }

    /** "read of 'k'" or "verification" without a key. */
    static String target(String operation, @Nullable String key) {
        return key == null ? operation : operation + " of '" + key + "'";
    }

    private BackendException accessDenied(String code, Throwable e, String action) {
        String what = code.equals("NOAUTH") ? "requires a password and none was given: set the password (and, for an"
                + " ACL user, the user name) hoplock connects with"
                : code.equals("NOPERM") ? "refused a command of the connection handshake (" + clean(e.getMessage())
                + "); grant the user +@connection or the commands named"
                : "refused the user name and password (" + (code.isEmpty() ? "authentication failed" : code) + "):"
                + " check the password (and, for an ACL user, the user name) hoplock connects with";
        return new BackendException(Kind.ACCESS_DENIED, "cannot " + action + " on " + store + ": the server " + what
                + "; nothing was sent", e);
    }

    /** The error code of a server reply (its first word, upper case), or "" for a client-side failure. */
    static String serverCode(@Nullable Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RedisCommandExecutionException && t.getMessage() != null) {
                String message = t.getMessage().strip();
                int space = message.indexOf(' ');
                String first = space < 0 ? message : message.substring(0, space);
                if (first.equals("ERR") && message.contains("WRONGTYPE")) {
                    return "WRONGTYPE";
                }
                if (first.equals("ERR") && message.contains("NOPERM")) {
                    return "NOPERM";
                }
                if (first.equals("ERR") && message.contains("-READONLY")) {
                    return "READONLY";
                }
                return first.toUpperCase(Locale.ROOT);
            }
        }
        return "";
    }

    private static boolean mentionsAuth(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = String.valueOf(t.getMessage()).toLowerCase(Locale.ROOT);
            if (m.contains("wrongpass") || m.contains("invalid username-password") || m.contains("noauth")
                    || m.contains("invalid password")) {
                return true;
            }
        }
        return false;
    }

    private static boolean isUnknownCommand(String text) {
        String m = text.toLowerCase(Locale.ROOT);
        return m.startsWith("err unknown command") || m.contains("unknown command 'eval");
    }

    private static boolean isScriptKeyRefusal(String text) {
        String m = text.toLowerCase(Locale.ROOT);
        return m.contains("can't access at least one of the keys") || m.contains("no permissions to access a key")
                || m.contains("no permissions to run") || m.contains("can't run this command");
    }

    /** The messages of {@code e} and its causes, cleaned, for an "unreachable" message. */
    private String chain(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null && text.length() < Redaction.MAX_LENGTH; t = t.getCause()) {
            String message = t.getMessage();
            if (message != null && !message.isBlank() && text.indexOf(message) < 0) {
                text.append(text.length() == 0 ? "" : ": ").append(message);
            }
        }
        return clean(text.length() == 0 ? e.getClass().getSimpleName() : text.toString());
    }

    static Throwable unwrap(Throwable e) {
        Throwable t = e;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
