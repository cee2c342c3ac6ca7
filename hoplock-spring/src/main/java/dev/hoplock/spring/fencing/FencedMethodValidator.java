package dev.hoplock.spring.fencing;

import dev.hoplock.core.fencing.Fence;
import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.annotation.BeanFactoryAnnotationUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.transaction.TransactionDefinition;
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
import java.util.Objects;

/**
 * Fails the start, instead of the first call, when a {@link dev.hoplock.spring.annotation.Fenced} method could not be
 * checked inside its transaction:
 * <ul>
 *   <li>its resource name is invalid ({@link Fence#validateResource});</li>
 *   <li>the bean is not proxied with the fence advisor;</li>
 *   <li>no {@code @Transactional} advisor applies to it, or its propagation (SUPPORTS, NOT_SUPPORTED, NEVER) may run
 *       it without a transaction;</li>
 *   <li>the transaction advisor runs <em>inside</em> the fence advisor (the check would run before the transaction
 *       exists), which happens only when the application orders the transaction advisor after it;</li>
 *   <li>the {@link FencingTokenSource} does not cover it (no {@code @LeaderOnly}), or its token advisor runs inside
 *       the fence advisor;</li>
 *   <li>there is no {@link Fence} bean (checked once all singletons exist);</li>
 *   <li>the fence is a {@link DataSourceFence} (the starter's JDBC fence) and the transaction manager of the method's
 *       {@code @Transactional} (its qualifier, the type-level {@code @Qualifier}, the interceptor's manager or the
 *       application's default, resolved as Spring resolves it) does not run its transactions on the fence's
 *       DataSource, or runs them on no DataSource that can be told (JTA, a chained or custom manager): the check
 *       would run on a connection outside the method's transaction, which nobody commits, and the method's writes
 *       would commit unchecked (checked once all singletons exist; the message names the bean, the method, the
 *       transaction manager, both DataSources and the fix).</li>
 * </ul>
 * Runs after the auto-proxy creator, as each bean is initialized, and reads the proxy's own advisor chain, which is
 * the order of the calls.
 */
public final class FencedMethodValidator implements BeanPostProcessor, SmartInitializingSingleton, BeanFactoryAware,
        Ordered {

    private final FencingTokenSource tokens;
    private final ObjectProvider<Fence> fences;
    private final List<String> fencedBeans = new ArrayList<>();
    /** The transactional fenced methods seen, for the check of their transaction manager once singletons exist. */
    private final List<TransactionalMethod> transactionalMethods = new ArrayList<>();
    private @Nullable ListableBeanFactory beanFactory;

    public FencedMethodValidator(FencingTokenSource tokens, ObjectProvider<Fence> fences) {
        this.tokens = Objects.requireNonNull(tokens, "tokens");
        this.fences = Objects.requireNonNull(fences, "fences");
    }

    @Override
    public void setBeanFactory(BeanFactory beanFactory) throws BeansException {
        this.beanFactory = beanFactory instanceof ListableBeanFactory listable ? listable : null;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> targetClass = AopProxyUtils.ultimateTargetClass(bean);
        if (!AnnotationUtils.isCandidateClass(targetClass, dev.hoplock.spring.annotation.Fenced.class)) {
            return bean;
        }
        Map<Method, String> fenced = MethodIntrospector.selectMethods(targetClass,
                (MethodIntrospector.MetadataLookup<String>) method -> FencedMethods.resource(method, targetClass));
        if (fenced.isEmpty()) {
            return bean;
        }
        List<String> problems = new ArrayList<>();
        List<TransactionalMethod> transactional = new ArrayList<>();
        fenced.forEach((method, resource) -> problems.addAll(check(bean, beanName, targetClass, method, resource,
                transactional)));
        if (!problems.isEmpty()) {
            throw new HoplockConfigurationException(null, "@Fenced cannot work on bean '" + beanName + "': "
                    + String.join("; ", problems) + ".", actionFor(problems));
        }
        synchronized (this) {
            fencedBeans.add(beanName);
            transactionalMethods.addAll(transactional);
        }
        return bean;
    }

    /** The names of the beans with {@code @Fenced} methods validated so far (all of them once singletons exist). */
    public synchronized List<String> fencedBeans() {
        return List.copyOf(fencedBeans);
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<String> beans;
        List<TransactionalMethod> methods;
        synchronized (this) {
            beans = List.copyOf(fencedBeans);
            methods = List.copyOf(transactionalMethods);
        }
        if (beans.isEmpty()) {
            return;
        }
        Fence fence = fences.getIfAvailable();
        if (fence == null) {
            throw new HoplockConfigurationException(null, "@Fenced methods of bean(s) " + beans + " need a Fence,"
                    + " and the application context has none.", "Add dev.hoplock:hoplock-jdbc and a DataSource (with"
                    + " Spring JDBC): the starter then defines a fence in the DataSource's database; or define a"
                    + " dev.hoplock.core.fencing.Fence bean.");
        }
        if (fence instanceof DataSourceFence dataSourceFence && beanFactory != null) {
            checkTransactionManagers(dataSourceFence, methods, beanFactory);
        }
    }

    /**
     * Every fenced method's transaction manager must run its transactions on the fence's DataSource: otherwise the
     * fence's connection is outside the method's transaction (with a pool configured {@code autoCommit=false} the
     * check even passes, nobody commits it, and the method's writes commit unchecked).
     */
    private static void checkTransactionManagers(DataSourceFence fence, List<TransactionalMethod> methods,
            ListableBeanFactory beans) {
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

    private List<String> check(Object bean, String beanName, Class<?> targetClass, Method method, String resource,
            List<TransactionalMethod> transactional) {
        List<String> problems = new ArrayList<>();
        String where = FencedMethods.describe(method) + " (@Fenced(\"" + resource + "\"))";
        try {
            Fence.validateResource(resource);
        } catch (IllegalArgumentException e) {
            problems.add(where + ": " + e.getMessage());
        }
        if (!(bean instanceof Advised advised)) {
            problems.add(where + " is on a bean that Spring AOP did not proxy, so the fence would silently not apply");
            return problems;
        }
        Advisor[] chain = advised.getAdvisors();
        int fence = indexOf(chain, FencedAdvisor.class::isInstance);
        if (fence < 0) {
            problems.add(where + " is on a bean that is not proxied with the fence advisor, so the fence would"
                    + " silently not apply");
            return problems;
        }
        int transaction = -1;
        TransactionAttribute attribute = null;
        for (int i = 0; i < chain.length; i++) {
            TransactionAttribute found = transactionAttribute(chain[i], method, targetClass);
            if (found != null) {
                transaction = i;
                attribute = found;
                break;
            }
        }
        if (attribute == null) {
            problems.add(where + " is not @Transactional, so no transaction would hold the fence row's lock until its"
                    + " writes commit");
        } else {
            int propagation = attribute.getPropagationBehavior();
            if (propagation == TransactionDefinition.PROPAGATION_SUPPORTS
                    || propagation == TransactionDefinition.PROPAGATION_NOT_SUPPORTED
                    || propagation == TransactionDefinition.PROPAGATION_NEVER) {
                problems.add(where + " has a transaction propagation that may run it without a transaction");
            }
            if (transaction > fence) {
                problems.add(where + ": the @Transactional advisor (order " + order(chain[transaction]) + ") runs"
                        + " inside the fence advisor (order " + order(chain[fence]) + "), so the check would run"
                        + " before the transaction begins");
            }
            transactional.add(new TransactionalMethod(beanName, where, targetClass,
                    (TransactionInterceptor) chain[transaction].getAdvice(), attribute));
        }
        if (!tokens.covers(method, targetClass)) {
            problems.add(where + " carries no fencing token: tokens come from " + tokens.describe()
                    + ", which does not apply to this method");
        } else {
            int token = indexOf(chain, tokens::isTokenAdvisor);
            if (token > fence) {
                problems.add(where + ": the advisor of " + tokens.describe() + " (order " + order(chain[token])
                        + ") runs inside the fence advisor, so the check would find no token");
            }
        }
        return problems;
    }

    private static @Nullable TransactionAttribute transactionAttribute(Advisor advisor, Method method,
            Class<?> targetClass) {
        if (!(advisor.getAdvice() instanceof TransactionInterceptor interceptor)) {
            return null;
        }
        TransactionAttributeSource source = interceptor.getTransactionAttributeSource();
        return source == null ? null : source.getTransactionAttribute(method, targetClass);
    }

    private static int indexOf(Advisor[] chain, java.util.function.Predicate<Advisor> test) {
        for (int i = 0; i < chain.length; i++) {
            if (test.test(chain[i])) {
                return i;
            }
        }
        return -1;
    }

    private static String order(Advisor advisor) {
        return advisor instanceof Ordered ordered ? String.valueOf(ordered.getOrder()) : "unordered";
    }

    private static String actionFor(List<String> problems) {
        String all = String.join(" ", problems);
        List<String> actions = new ArrayList<>();
        if (all.contains("not @Transactional") || all.contains("propagation")) {
            actions.add("annotate the method @Transactional (propagation REQUIRED, REQUIRES_NEW or MANDATORY)");
        }
        if (all.contains("runs inside the fence advisor")) {
            actions.add("order the @Transactional and @LeaderOnly advisors before the fence advisor (lowest"
                    + " precedence): keep @EnableTransactionManagement's order and hoplock.aspect-order below"
                    + " Integer.MAX_VALUE, or leave them at their defaults");
        }
        if (all.contains("carries no fencing token")) {
            actions.add("annotate the method (or its class) @LeaderOnly, or the method @WithLock, so that the call"
                    + " runs under a lease or a lock whose generation is the token");
        }
        if (all.contains("did not proxy") || all.contains("not proxied")) {
            actions.add("keep Spring AOP auto-proxying on and make the method public and non-final");
        }
        if (all.contains("resource name")) {
            actions.add("name the resource with 1 to 255 characters, no control characters");
        }
        return actions.isEmpty() ? "Fix the annotated method." : Character.toUpperCase(actions.get(0).charAt(0))
                + String.join("; ", actions).substring(1) + ".";
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /**
     * A fenced method with its transaction advisor: which transaction manager runs it is resolved once every
     * singleton exists, the way {@code TransactionAspectSupport#determineTransactionManager} resolves it.
     */
    private record TransactionalMethod(String beanName, String where, Class<?> targetClass,
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
