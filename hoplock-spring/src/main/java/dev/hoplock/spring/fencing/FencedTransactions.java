package dev.hoplock.spring.fencing;

import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.annotation.BeanFactoryAnnotationUtils;
import org.springframework.transaction.TransactionManager;
import org.springframework.transaction.interceptor.TransactionAttribute;
import org.springframework.transaction.interceptor.TransactionAttributeSource;
import org.springframework.transaction.interceptor.TransactionInterceptor;
import org.springframework.util.StringUtils;

import javax.sql.DataSource;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The transactions of {@code @Fenced} methods, for {@link FencedMethodValidator}: which advisor of a proxy's chain
 * begins a method's transaction ({@link #of}), and, once every singleton exists, whether the transaction manager of
 * every fenced method runs its transactions on the DataSource of a {@link DataSourceFence} ({@link #check}); the
 * failure names the bean, the method, the transaction manager, both DataSources and the fix.
 */
final class FencedTransactions {

    private FencedTransactions() {
    }

    /**
     * The transaction advisor of a method: its place in the proxy's chain (lower runs first, outside), its
     * interceptor and the method's transaction attribute.
     */
    record Transaction(int index, TransactionInterceptor interceptor, TransactionAttribute attribute) {
    }

    /** The first advisor of {@code chain} that runs {@code method} on {@code targetClass} in a transaction, or null. */
    static @Nullable Transaction of(Advisor[] chain, Method method, Class<?> targetClass) {
        for (int i = 0; i < chain.length; i++) {
            if (chain[i].getAdvice() instanceof TransactionInterceptor interceptor) {
                TransactionAttributeSource source = interceptor.getTransactionAttributeSource();
                TransactionAttribute attribute = source == null ? null
                        : source.getTransactionAttribute(method, targetClass);
                if (attribute != null) {
                    return new Transaction(i, interceptor, attribute);
                }
            }
        }
        return null;
    }

    /**
     * Every fenced method's transaction manager must run its transactions on the fence's DataSource: otherwise the
     * fence's connection is outside the method's transaction (with a pool configured {@code autoCommit=false} the
     * check even passes, nobody commits it, and the method's writes commit unchecked).
     */
    static void check(DataSourceFence fence, List<TransactionalMethod> methods, ListableBeanFactory beans) {
        DataSource fenceDataSource = fence.dataSource();
        String fenceName = nameOf(beans, fenceDataSource);
        Map<String, List<String>> problemsByBean = new LinkedHashMap<>();
        List<String> actions = new ArrayList<>();
        for (TransactionalMethod method : methods) {
            TransactionManager manager;
            try {
                manager = method.transactionManager(beans);
            } catch (BeansException e) {
                problemsByBean.computeIfAbsent(method.beanName(), key -> new ArrayList<>()).add(method.where()
                        + ": its transaction manager cannot be determined (" + e.getMessage() + "), so the fence"
                        + " check in DataSource " + fenceName + " cannot be shown to run in its transaction");
                addOnce(actions, "define the transaction manager the method's @Transactional names");
                continue;
            }
            String managerName = "transaction manager " + managerName(beans, manager) + " ("
                    + manager.getClass().getSimpleName() + ")";
            DataSource managed = TransactionManagerDataSource.of(manager);
            if (managed == null) {
                problemsByBean.computeIfAbsent(method.beanName(), key -> new ArrayList<>()).add(method.where()
                        + " runs in the transactions of " + managerName + ", which runs them on no DataSource"
                        + " that can be told, and the fence checks tokens in DataSource " + fenceName + ", so the"
                        + " check would not be shown to be in the method's transaction");
                addOnce(actions, "run the method in a transaction of a JdbcTransactionManager,"
                        + " DataSourceTransactionManager or JpaTransactionManager over " + fenceName
                        + " (@Transactional(\"<its bean name>\")), or define your own"
                        + " dev.hoplock.core.fencing.Fence bean");
            } else if (!TransactionManagerDataSource.same(managed, fenceDataSource)) {
                String managedName = nameOf(beans, managed);
                problemsByBean.computeIfAbsent(method.beanName(), key -> new ArrayList<>()).add(method.where()
                        + " runs in the transactions of " + managerName + " on DataSource " + managedName
                        + ", but the fence checks tokens in DataSource " + fenceName + ": the check would run on"
                        + " a connection that is not in the method's transaction, which nobody commits, and the"
                        + " method's writes would commit unchecked");
                String fix = "set hoplock.fence.data-source=" + bare(managedName) + " (the fence table in the"
                        + " database of the transaction manager's DataSource), or run the method in a transaction of"
                        + " " + bare(fenceName) + " (@Transactional(\"<a transaction manager of " + bare(fenceName)
                        + ">\")) and make its writes there";
                addOnce(actions, fix);
            }
        }
        if (problemsByBean.isEmpty()) {
            return;
        }
        List<String> descriptions = new ArrayList<>();
        problemsByBean.forEach((bean, problems) -> descriptions.add("@Fenced cannot work on bean '" + bean + "': "
                + String.join("; ", problems) + "."));
        String action = String.join("; ", actions);
        throw new HoplockConfigurationException("hoplock.fence.data-source", String.join(" ", descriptions),
                Character.toUpperCase(action.charAt(0)) + action.substring(1) + ".");
    }

    private static void addOnce(List<String> actions, String action) {
        if (!actions.contains(action)) {
            actions.add(action);
        }
    }

    /** {@code 'name'} of the bean that is {@code dataSource}, or a description of an unnamed one (no URL, no user). */
    private static String nameOf(ListableBeanFactory beans, DataSource dataSource) {
        for (String name : beans.getBeanNamesForType(DataSource.class, false, false)) {
            Object candidate = beans.getBean(name);
            if (candidate instanceof DataSource each && TransactionManagerDataSource.same(each, dataSource)) {
                return "'" + name + "'";
            }
        }
        return "(a " + dataSource.getClass().getSimpleName() + " that is no bean)";
    }

    private static String managerName(ListableBeanFactory beans, TransactionManager manager) {
        for (String name : beans.getBeanNamesForType(TransactionManager.class, false, false)) {
            if (beans.getBean(name) == manager) {
                return "'" + name + "'";
            }
        }
        return "(no bean)";
    }

    private static String bare(String quotedName) {
        return quotedName.startsWith("'") && quotedName.endsWith("'")
                ? quotedName.substring(1, quotedName.length() - 1) : quotedName;
    }

    /**
     * A fenced method with its transaction advisor: which transaction manager runs it is resolved once every
     * singleton exists, the way {@code TransactionAspectSupport#determineTransactionManager} resolves it.
     */
    record TransactionalMethod(String beanName, String where, Class<?> targetClass,
            TransactionInterceptor interceptor, TransactionAttribute attribute) {

        /** The attribute's qualifier, the target class's {@code @Qualifier}, the interceptor's manager, the default. */
        TransactionManager transactionManager(ListableBeanFactory beans) {
            String qualifier = attribute.getQualifier();
            if (StringUtils.hasText(qualifier)) {
                return BeanFactoryAnnotationUtils.qualifiedBeanOfType(beans, TransactionManager.class, qualifier);
            }
            String typeQualifier = BeanFactoryAnnotationUtils.getQualifierValue(targetClass);
            if (StringUtils.hasText(typeQualifier)) {
                try {
                    return BeanFactoryAnnotationUtils.qualifiedBeanOfType(beans, TransactionManager.class,
                            typeQualifier);
                } catch (org.springframework.beans.factory.NoSuchBeanDefinitionException e) {
                    // As Spring does: a type-level qualifier need not name a transaction manager.
                }
            }
            TransactionManager configured = interceptor.getTransactionManager();
            return configured != null ? configured : beans.getBean(TransactionManager.class);
        }
    }
}
