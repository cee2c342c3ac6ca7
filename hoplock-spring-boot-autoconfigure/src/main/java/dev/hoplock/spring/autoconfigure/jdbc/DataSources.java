package dev.hoplock.spring.autoconfigure.jdbc;

import dev.hoplock.spring.HoplockConfigurationException;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;

import javax.sql.DataSource;
import java.util.Arrays;

/**
 * Picks the {@link DataSource} hoplock uses: the bean a property names, else the application's only (or
 * {@code @Primary}) one. Every failure names the property and the DataSource beans there are; none shows a URL, user
 * or password.
 */
final class DataSources {

    private DataSources() {
    }

    /**
     * @param named    the bean name from {@code property}, or null for the application's DataSource
     * @param property the property that names it, for example {@code hoplock.jdbc.data-source}
     * @param purpose  what it is for, for messages, for example {@code "hoplock.backend is jdbc"}
     */
    static Chosen choose(ListableBeanFactory beans, @Nullable String named, String property, String purpose) {
        String[] names = beans.getBeanNamesForType(DataSource.class);
        if (named != null && !named.isBlank()) {
            if (!beans.containsBean(named) || !beans.isTypeMatch(named, DataSource.class)) {
                throw new HoplockConfigurationException(property, purpose + ", and " + property + " names the"
                        + " DataSource bean '" + named + "', but there is no DataSource bean of that name (DataSource"
                        + " beans: " + list(names) + ").", "Set " + property + " to one of " + list(names)
                        + ", or remove it to use the application's DataSource.");
            }
            return new Chosen(named, beans.getBean(named, DataSource.class));
        }
        if (names.length == 0) {
            throw new HoplockConfigurationException("hoplock.backend", purpose + ", but the application has no"
                    + " DataSource bean.", "Add org.springframework.boot:spring-boot-starter-jdbc with your database's"
                    + " driver and set spring.datasource.url (or define a DataSource bean), or set hoplock.backend to"
                    + " another store (s3, filesystem, memory).");
        }
        ObjectProvider<DataSource> provider = beans.getBeanProvider(DataSource.class);
        DataSource unique = provider.getIfUnique();
        if (unique == null) {
            throw new HoplockConfigurationException(property, purpose + ", and the application has several"
                    + " DataSource beans (" + list(names) + "), none of them @Primary.", "Set " + property
                    + " to the name of the DataSource bean hoplock should use.");
        }
        String name = names.length == 1 ? names[0] : Arrays.stream(names)
                .filter(candidate -> beans.getBean(candidate, DataSource.class) == unique).findFirst()
                .orElse("the primary DataSource");
        return new Chosen(name, unique);
    }

    private static String list(String[] names) {
        return names.length == 0 ? "none" : String.join(", ", names);
    }

    /** A chosen DataSource and its bean name. */
    record Chosen(String name, DataSource dataSource) {
    }
}
