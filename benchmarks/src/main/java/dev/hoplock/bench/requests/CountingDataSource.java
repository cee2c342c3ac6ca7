package dev.hoplock.bench.requests;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.Statement;
import java.util.logging.Logger;

/**
 * A JDBC statement counter: wraps the driver's {@link DataSource} (below the connection pool, so that the pool's own
 * calls are counted too) and counts, per instance, every call that makes the driver talk to the server:
 * {@code jdbc.execute} (any {@code execute*} of a statement; a batch counts once), {@code jdbc.commit},
 * {@code jdbc.rollback} and {@code jdbc.isValid}. {@code setAutoCommit} calls are counted apart
 * ({@code jdbc.setAutoCommit}): PostgreSQL's driver sends nothing for them unless a transaction is open.
 */
final class CountingDataSource implements DataSource {

    private final DataSource target;
    private final RequestCounter counter;

    CountingDataSource(DataSource target, RequestCounter counter) {
        this.target = target;
        this.counter = counter;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return wrap(target.getConnection());
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        return wrap(target.getConnection(username, password));
    }

    private Connection wrap(Connection connection) {
        counter.add("jdbc.connect");
        return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {Connection.class},
                new Handler(connection, true));
    }

    private final class Handler implements InvocationHandler {
        private final Object target;
        private final boolean connection;
        /** A statement whose parameters name a lock record ({@code locks/...}): counted again as {@code lockkey.*}. */
        private boolean lockKey;

        Handler(Object target, boolean connection) {
            this.target = target;
            this.connection = connection;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            String name = method.getName();
            if (!connection && name.equals("setString") && args != null && args.length == 2
                    && args[1] instanceof String value && value.startsWith("locks/")) {
                lockKey = true;
            }
            if (!connection && name.startsWith("execute")) {
                long start = System.nanoTime();
                try {
                    return method.invoke(target, args);
                } catch (InvocationTargetException e) {
                    throw e.getCause();
                } finally {
                    long took = System.nanoTime() - start;
                    counter.add("jdbc.execute", took);
                    if (lockKey) {
                        counter.add("lockkey.jdbc.execute", took);
                    }
                }
            }
            if (connection) {
                switch (name) {
                    case "commit" -> counter.add("jdbc.commit");
                    case "rollback" -> counter.add("jdbc.rollback");
                    case "isValid" -> counter.add("jdbc.isValid");
                    case "setAutoCommit" -> counter.add("jdbc.setAutoCommit");
                    default -> {
                    }
                }
            }
            Object result;
            try {
                result = method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
            if (connection && result instanceof Statement statement) {
                Class<?> type = result instanceof CallableStatement ? CallableStatement.class
                        : result instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
                return Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {type},
                        new Handler(statement, false));
            }
            return result;
        }
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return target.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        target.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        target.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return target.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return target.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        return target.unwrap(iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) throws SQLException {
        return iface.isInstance(this) || target.isWrapperFor(iface);
    }
}
