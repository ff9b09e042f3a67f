package dev.pagantic.orchestrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * What holds for every candidate list. Note what is not claimed: the majority winner is not invariant under
 * reordering, because ties go to the class seen first.
 */
class VotingPropertiesTest {

    private static final VotingStrategy MAJORITY = new MajorityVoting();
    private static final VotingStrategy CANONICAL = new CanonicalJsonVoting();

    @Property
    void theMajorityWinnerHasTheLargestCountAndIsTheFirstSeenAmongThoseTied(
            @ForAll @Size(min = 1, max = 12) List<@From("smallAlphabet") String> candidates) {
        Vote vote = MAJORITY.vote(candidates);

        Map<String, Long> counts = candidates.stream()
                .collect(Collectors.groupingBy(c -> c, Collectors.counting()));
        long max = Collections.max(counts.values());
        assertThat(vote.supporters()).isEqualTo(counts.get(vote.winner()).intValue()).isEqualTo((int) max);
        assertThat(vote.winnerIndex()).isEqualTo(candidates.indexOf(vote.winner()));
        assertThat(vote.winner()).isEqualTo(candidates.stream().filter(c -> counts.get(c) == max).findFirst()
                .orElseThrow());
    }

    @Property
    void theConfidenceIsTheWinnersShareOfTheCandidates(
            @ForAll @Size(min = 1, max = 12) List<@From("smallAlphabet") String> candidates) {
        Vote vote = MAJORITY.vote(candidates);

        assertThat(vote.total()).isEqualTo(candidates.size());
        assertThat(vote.confidence()).isEqualTo((double) vote.supporters() / candidates.size());
        assertThat(vote.confidence()).isBetween(0.0, 1.0);
    }

    @Property
    void unanimityAcceptsExactlyTheListsWithOneDistinctValue(
            @ForAll @Size(min = 1, max = 8) List<@From("smallAlphabet") String> candidates) {
        int firstDifferent = -1;
        for (int i = 1; i < candidates.size() && firstDifferent < 0; i++) {
            if (!candidates.get(i).equals(candidates.get(0))) {
                firstDifferent = i;
            }
        }
        if (firstDifferent < 0) {
            Vote vote = new UnanimityVoting().vote(candidates);
            assertThat(vote.winner()).isEqualTo(candidates.get(0));
            assertThat(vote.confidence()).isEqualTo(1.0);
        } else {
            String expected = "unanimity voting: candidate " + firstDifferent + " differs from candidate 0";
            assertThatThrownBy(() -> new UnanimityVoting().vote(candidates))
                    .isInstanceOfSatisfying(PaganticException.class,
                            e -> assertThat(e.description()).isEqualTo(expected));
        }
    }

    @Property(tries = 300)
    void reserialisationsWithShuffledKeysAndWhitespaceFormOneClass(@ForAll("jsonValues") Object value,
                                                                   @ForAll @IntRange(min = 1, max = 6) int copies,
                                                                   @ForAll Random random) {
        List<String> candidates = new ArrayList<>();
        for (int i = 0; i < copies; i++) {
            candidates.add(render(value, random));
        }

        Vote vote = CANONICAL.vote(candidates);

        assertThat(vote.unanimous()).isTrue();
        assertThat(vote.confidence()).isEqualTo(1.0);
        assertThat(vote.winner()).isSameAs(candidates.get(0));
    }

    @Property(tries = 300)
    void canonicalJsonVotingCountsEqualValuesWhateverTheirSpelling(
            @ForAll @Size(min = 1, max = 4) List<@From("jsonValues") Object> pool,
            @ForAll @Size(min = 1, max = 10) List<@IntRange(min = 0, max = 3) Integer> picks,
            @ForAll Random random) {
        List<Object> values = picks.stream().map(p -> pool.get(p % pool.size())).collect(Collectors.toList());
        List<String> candidates = values.stream().map(v -> render(v, random)).collect(Collectors.toList());

        Vote vote = CANONICAL.vote(candidates);

        // The reference model: Java equality of the generated values (maps ignore order, integers are exact).
        Object winnerValue = values.get(vote.winnerIndex());
        Map<Object, Long> counts = values.stream().collect(Collectors.groupingBy(v -> v, Collectors.counting()));
        long max = Collections.max(counts.values());
        assertThat(vote.supporters()).isEqualTo(counts.get(winnerValue).intValue()).isEqualTo((int) max);
        assertThat(vote.winnerIndex()).isEqualTo(values.indexOf(winnerValue));
        assertThat(vote.winnerIndex()).isEqualTo(values.indexOf(
                values.stream().filter(v -> counts.get(v) == max).findFirst().orElseThrow()));
        assertThat(vote.winner()).isSameAs(candidates.get(vote.winnerIndex()));
    }

    @Property
    void withNoValidJsonCanonicalVotingAgreesWithMajorityVoting(
            @ForAll @Size(min = 1, max = 12) List<@From("smallAlphabet") String> letters) {
        List<String> candidates = letters.stream().map(l -> "~" + l).collect(Collectors.toList()); // never JSON

        assertThat(CANONICAL.vote(candidates)).isEqualTo(MAJORITY.vote(candidates));
    }

    @Property
    void aQuorumPassesExactlyWhenTheConfidenceReachesIt(
            @ForAll @Size(min = 1, max = 12) List<@From("smallAlphabet") String> candidates,
            @ForAll @DoubleRange(min = 0.01, max = 1.0) double quorum) {
        Vote plain = MAJORITY.vote(candidates);
        VotingStrategy withQuorum = MAJORITY.withQuorum(quorum);

        if (plain.confidence() >= quorum) {
            assertThat(withQuorum.vote(candidates)).isEqualTo(plain);
        } else {
            assertThatThrownBy(() -> withQuorum.vote(candidates))
                    .isInstanceOfSatisfying(PaganticException.class,
                            e -> assertThat(e.code()).isEqualTo(ErrorCode.ORCHESTRATION_NO_CONSENSUS));
        }
    }

    @Provide
    Arbitrary<String> smallAlphabet() {
        return Arbitraries.of("a", "b", "c", "d");
    }

    @Provide
    Arbitrary<Object> jsonValues() {
        return jsonValue(3);
    }

    /** Integers, alphabetic strings, booleans, and arrays and objects of them, nested at most {@code depth} deep. */
    private static Arbitrary<Object> jsonValue(int depth) {
        Arbitrary<Object> leaf = Arbitraries.oneOf(
                Arbitraries.integers().between(-1000, 1000).map(Object.class::cast),
                Arbitraries.strings().alpha().ofMaxLength(5).map(Object.class::cast),
                Arbitraries.of(true, false).map(Object.class::cast));
        if (depth == 0) {
            return leaf;
        }
        Arbitrary<Object> inner = Arbitraries.lazy(() -> jsonValue(depth - 1));
        return Arbitraries.oneOf(leaf,
                inner.list().ofMaxSize(3).map(Object.class::cast),
                Arbitraries.maps(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(3), inner)
                        .ofMaxSize(4).map(Object.class::cast));
    }

    /** Writes a generated value as JSON, with random key order, whitespace and number spelling. */
    private static String render(Object value, Random random) {
        StringBuilder out = new StringBuilder();
        write(value, random, out);
        return space(random) + out + space(random);
    }

    private static void write(Object value, Random random, StringBuilder out) {
        if (value instanceof Map<?, ?> map) {
            List<Map.Entry<?, ?>> entries = new ArrayList<>(map.entrySet());
            Collections.shuffle(entries, random);
            out.append('{');
            for (int i = 0; i < entries.size(); i++) {
                out.append(i > 0 ? "," : "").append(space(random))
                        .append('"').append(entries.get(i).getKey()).append('"')
                        .append(space(random)).append(':').append(space(random));
                write(entries.get(i).getValue(), random, out);
            }
            out.append(space(random)).append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            for (int i = 0; i < list.size(); i++) {
                out.append(i > 0 ? "," : "").append(space(random));
                write(list.get(i), random, out);
            }
            out.append(space(random)).append(']');
        } else if (value instanceof Integer number) {
            // "0e-1" appended gives 50e-1 for 5, but 00e-1 (a leading zero, not JSON) for 0: only for non-zero.
            String[] spellings = {"", ".0", ".000", "e0", "E+0", "0e-1"};
            int choices = number == 0 ? spellings.length - 1 : spellings.length;
            out.append(number).append(spellings[random.nextInt(choices)]);
        } else if (value instanceof String text) {
            out.append('"').append(text).append('"');
        } else {
            out.append(value);
        }
    }

    private static String space(Random random) {
        String[] spaces = {"", "", " ", "\n  ", "\t"};
        return spaces[random.nextInt(spaces.length)];
    }
}
