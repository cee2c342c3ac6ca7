package dev.hoplock.core.ownership;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RankingTest {

    /** U+FF61 (one UTF-16 unit, UTF-8 EF BD A1) and U+1F600 (two units D83D DE00, UTF-8 F0 9F 98 80). */
    private static final String HALFWIDTH_STOP = "\uFF61";
    private static final String GRINNING_FACE = "\uD83D\uDE00";

    @Test
    void idsCompareByTheirUtf8BytesAsGoDoesNotByUtf16Units() {
        // String.compareTo compares UTF-16 units: D83D < FF61, so the emoji sorts first.
        assertThat(GRINNING_FACE.compareTo(HALFWIDTH_STOP)).isNegative();
        // Go compares bytes: EF < F0, so U+FF61 sorts first; so must we.
        assertThat(Ranking.compareIds(utf8(HALFWIDTH_STOP), utf8(GRINNING_FACE))).isNegative();
        assertThat(Ranking.compareIds(utf8(GRINNING_FACE), utf8(HALFWIDTH_STOP))).isPositive();
    }

    @Test
    void idBytesCompareUnsignedAndAPrefixFirst() {
        assertThat(Ranking.compareIds(utf8("\u00e9"), utf8("z"))).isPositive(); // C3 A9 > 7A, not a negative byte
        assertThat(Ranking.compareIds(utf8("node"), utf8("node-1"))).isNegative();
        assertThat(Ranking.compareIds(utf8("node-1"), utf8("node-1"))).isZero();
    }

    @Test
    void equalWeightsGoToTheSmallerIdInByteOrder() {
        long weight = 42;
        assertThat(Ranking.compare(weight, utf8(HALFWIDTH_STOP), weight, utf8(GRINNING_FACE))).isNegative();
        assertThat(Ranking.compare(weight, utf8(GRINNING_FACE), weight, utf8(HALFWIDTH_STOP))).isPositive();
        assertThat(Ranking.compare(weight, utf8("a"), weight, utf8("b"))).isNegative();
    }

    @Test
    void weightsCompareUnsignedTheHigherFirst() {
        long aboveTwoToThe63 = 0x8000_0000_0000_0001L; // negative as a signed long
        assertThat(Ranking.compare(aboveTwoToThe63, utf8("z"), 5, utf8("a"))).isNegative();
        assertThat(Ranking.compare(5, utf8("a"), aboveTwoToThe63, utf8("z"))).isPositive();
        assertThat(Ranking.compare(-1L, utf8("z"), 0x7FFF_FFFF_FFFF_FFFFL, utf8("a"))).isNegative();
    }

    @Test
    void aViewListsItsMembersInGoOrder() {
        MembershipView view = MembershipView.of(3, List.of(Member.of(GRINNING_FACE), Member.of("z"),
                Member.of(HALFWIDTH_STOP), Member.of("\u00e9")));
        assertThat(view.members()).extracting(Member::id)
                .containsExactly("z", "\u00e9", HALFWIDTH_STOP, GRINNING_FACE);
        assertThat(view).isEqualTo(MembershipView.of(3, List.of(Member.of("z"), Member.of(HALFWIDTH_STOP),
                Member.of("\u00e9"), Member.of(GRINNING_FACE))));
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
