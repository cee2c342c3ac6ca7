package dev.hoplock.core;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static java.util.Objects.requireNonNull;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20: every safety rule has a stable id and one text, and the build shows that each is implemented and tested.
 * The ids are E0 to E7 (the elector, defined in {@code Elector}'s Javadoc), L1 ... (what named locks add, defined in
 * {@code lock/package-info.java}) and M1 to M9 (ownership groups, defined in {@code OwnershipGroup}'s Javadoc). For
 * each id this checks that (a) the one file that defines it has its list item ({@code <li><b>E4: ...}, or
 * {@code <li><b>M4, ...}) and no other file of the main code has one, (b) another file of the main code cites it (the
 * type that implements it: "Implements E4"), and (c) a test cites it, in its name ({@code e4_...}) or its Javadoc.
 * Files are found by name under {@code src/main/java} and {@code src/test/java}, so moving a package keeps this
 * check working.
 */
class RuleIdsTest {

    private static final Path MAIN = Path.of("src/main/java");
    private static final Path TEST = Path.of("src/test/java");
    private static final Pattern DEFINITION = Pattern.compile("<li><b>([ELM]\\d+)[:,]");

    @Test
    void everyRuleIdIsDefinedOnceImplementedAndTested() {
        Map<Path, String> main = read(MAIN);
        Map<Path, String> tests = read(TEST);
        tests.keySet().removeIf(path -> path.endsWith("RuleIdsTest.java"));
        Path elector = only(main, "Elector.java");
        Path locks = only(main, "lock/package-info.java");
        Path ownership = only(main, "OwnershipGroup.java");

        assertThat(definedIn(textOf(main, elector), 'E')).as("the elector's rules in %s", elector)
                .containsExactlyElementsOf(ids('E', 0, 7));
        assertThat(definedIn(textOf(main, ownership), 'M')).as("the ownership rules in %s", ownership)
                .containsExactlyElementsOf(ids('M', 1, 9));
        List<String> lockIds = definedIn(textOf(main, locks), 'L');
        assertThat(lockIds).as("the named locks' rules in %s, numbered from L1", locks).isNotEmpty()
                .containsExactlyElementsOf(ids('L', 1, lockIds.size()));

        Map<String, Path> definitions = new LinkedHashMap<>();
        definedIn(textOf(main, elector), 'E').forEach(id -> definitions.put(id, elector));
        lockIds.forEach(id -> definitions.put(id, locks));
        definedIn(textOf(main, ownership), 'M').forEach(id -> definitions.put(id, ownership));

        List<String> missing = new ArrayList<>();
        definitions.forEach((id, home) -> {
            main.forEach((path, text) -> {
                if (!path.equals(home) && definedIn(text, id.charAt(0)).contains(id)) {
                    missing.add(id + " is defined a second time, in " + path + " (its one place is " + home + ")");
                }
            });
            Pattern cited = Pattern.compile("(?<![A-Za-z0-9_])" + id + "(?![0-9])");
            if (main.entrySet().stream().noneMatch(e -> !e.getKey().equals(home) && cited.matcher(e.getValue()).find())) {
                missing.add(id + " is cited by no type of the main code (the one that implements it says \"Implements "
                        + id + "\")");
            }
            Pattern named = Pattern.compile("(?<![A-Za-z0-9])" + id.toLowerCase() + "_");
            if (tests.values().stream().noneMatch(text -> cited.matcher(text).find() || named.matcher(text).find())) {
                missing.add(id + " is cited by no test (in its name, " + id.toLowerCase() + "_..., or its Javadoc)");
            }
        });
        assertThat(missing).as("rule ids defined once, implemented and tested").isEmpty();
    }

    private static List<String> definedIn(String text, char family) {
        TreeSet<String> found = new TreeSet<>((a, b) -> Integer.compare(number(a), number(b)));
        Matcher m = DEFINITION.matcher(text);
        while (m.find()) {
            if (m.group(1).charAt(0) == family) {
                found.add(m.group(1));
            }
        }
        return List.copyOf(found);
    }

    private static int number(String id) {
        return Integer.parseInt(id.substring(1));
    }

    private static List<String> ids(char family, int from, int to) {
        List<String> ids = new ArrayList<>();
        for (int i = from; i <= to; i++) {
            ids.add(family + Integer.toString(i));
        }
        return ids;
    }

    private static String textOf(Map<Path, String> files, Path path) {
        return requireNonNull(files.get(path), () -> "not read: " + path);
    }

    private static Path only(Map<Path, String> files, String suffix) {
        List<Path> found = files.keySet().stream().filter(path -> path.endsWith(suffix)).toList();
        assertThat(found).as("exactly one %s under %s", suffix, MAIN).hasSize(1);
        return found.get(0);
    }

    private static Map<Path, String> read(Path root) {
        Map<Path, String> files = new LinkedHashMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path path : walk.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                files.put(path, Files.readString(path));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
