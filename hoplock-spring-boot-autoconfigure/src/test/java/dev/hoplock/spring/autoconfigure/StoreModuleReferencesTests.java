package dev.hoplock.spring.autoconfigure;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The shared auto-configuration imports no store module it does not configure (issue 20, item 4): a type of a store
 * module ({@code dev.hoplock.<store>}: s3, jdbc, elasticsearch, and any store added later) may be referred to only by
 * the classes of that store's own package of this module, {@code dev.hoplock.spring.autoconfigure.<store>}; and the
 * properties classes ({@link KnownProperties#CLASSES}), which the unknown-property check loads whether or not a store
 * is there, load without any. Read from the compiled classes' constant pools, like hoplock-spring's
 * {@code NoSpringBootReferenceTests}: an import, a fully qualified name, an annotation's class, a signature all show;
 * a class name in a string ({@code @ConditionalOnClass(name = "dev.hoplock.s3.S3Backend")}) is not a reference and
 * does not count. Every {@code @ConfigurationProperties} class of the module is in {@link KnownProperties#CLASSES}.
 */
class StoreModuleReferencesTests {

    /** A reference to a type of a hoplock module, in a class file: {@code dev/hoplock/<module>/}. */
    private static final Pattern MODULE_REFERENCE = Pattern.compile("dev/hoplock/([a-z0-9]+)/");

    /** A class-path entry of a store module: its jar or, in a reactor build, its classes directory. */
    private static final Pattern STORE_MODULE_ENTRY = Pattern.compile("/hoplock-(s3|jdbc|elasticsearch|redis|nats|dynamodb|azure-blob)[/-]");

    /** The modules that are no store: the core (always there) and this project's Spring modules. */
    private static final Set<String> NOT_STORES = Set.of("core", "spring");

    @Test
    void onlyAStoresOwnPackageRefersToItsModule() throws IOException {
        Path classes = classesDirectory();
        List<String> offenders = new ArrayList<>();
        Set<String> allowed = new TreeSet<>();
        try (Stream<Path> walk = Files.walk(classes)) {
            for (Path file : walk.filter(p -> p.toString().endsWith(".class")).toList()) {
                String name = classes.relativize(file).toString().replace('\\', '/');
                for (String store : storesReferredToBy(Files.readAllBytes(file))) {
                    if (name.startsWith("dev/hoplock/spring/autoconfigure/" + store + "/")) {
                        allowed.add(store);
                    } else {
                        offenders.add(name + " refers to dev.hoplock." + store);
                    }
                }
            }
        }
        assertThat(offenders).as("classes outside a store's package that refer to a store module").isEmpty();
        assertThat(allowed).as("the check sees the stores' own configurations").contains("s3", "jdbc", "elasticsearch");
    }

    /**
     * The unknown-property check knows every property, the stores' included, in an application that has none of the
     * store modules: the properties classes name no store type that would be loaded (a store's default that they
     * take from its builder is a constant, which the compiler copies). Run in a class loader of this test's class
     * path without the store modules.
     */
    @Test
    void everyPropertyIsKnownWithoutAnyStoreModule() throws Exception {
        List<URL> withoutStores = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (!STORE_MODULE_ENTRY.matcher(entry.replace('\\', '/')).find()) {
                withoutStores.add(Path.of(entry).toUri().toURL());
            }
        }
        try (URLClassLoader loader = new URLClassLoader(withoutStores.toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            assertThatThrownBy(() -> loader.loadClass("dev.hoplock.s3.S3BackendBuilder"))
                    .as("the store modules are not there").isInstanceOf(ClassNotFoundException.class);
            Class<?> known = loader.loadClass(KnownProperties.class.getName());
            Method ofHoplock = known.getDeclaredMethod("ofHoplock");
            ofHoplock.setAccessible(true);
            Method names = known.getDeclaredMethod("names");
            names.setAccessible(true);
            assertThat((List<?>) names.invoke(ofHoplock.invoke(null)))
                    .isEqualTo(KnownProperties.ofHoplock().names());
        }
    }

    @Test
    void everyPropertiesClassIsKnown() {
        assertThat(KnownProperties.CLASSES).containsExactlyInAnyOrderElementsOf(
                PropertyBindingTests.propertiesClasses());
    }

    @Test
    void theCheckFindsAStoreReferenceAndIgnoresNamesInStrings() {
        byte[] pool = "Ldev/hoplock/s3/S3Backend;Ldev/hoplock/core/backend/Backend;dev.hoplock.jdbc.JdbcBackend"
                .getBytes(StandardCharsets.UTF_8);
        assertThat(storesReferredToBy(pool)).containsExactly("s3");
        assertThat(storesReferredToBy("Ldev/hoplock/redis/RedisBackend;".getBytes(StandardCharsets.UTF_8)))
                .as("a store added later").containsExactly("redis");
    }

    /** The store modules a class file refers to (ISO-8859-1 keeps every byte one char, so ASCII names match). */
    private static Set<String> storesReferredToBy(byte[] classFile) {
        Matcher matcher = MODULE_REFERENCE.matcher(new String(classFile, StandardCharsets.ISO_8859_1));
        Set<String> stores = new TreeSet<>();
        while (matcher.find()) {
            if (!NOT_STORES.contains(matcher.group(1))) {
                stores.add(matcher.group(1));
            }
        }
        return stores;
    }

    private static Path classesDirectory() {
        try {
            Path classes = Path.of(HoplockProperties.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            assertThat(classes).as("the module's classes, a directory in a Maven build").isDirectory();
            return classes;
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }
}
