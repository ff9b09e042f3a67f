package dev.pagantic.constraint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Schema;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Properties of {@link EnumNormalizer} over generated spellings of enum values. */
class EnumNormalizerPropertiesTest {

    private static final List<String> COLOURS = List.of("red", "Green", "dark_blue");
    private static final Schema PALETTE = Schema.object()
            .required("colours", Schema.arrayOf(Schema.object()
                    .required("colour", Schema.enumOf(COLOURS.toArray(String[]::new)))
                    .required("weight", Schema.number())
                    .build()))
            .build();

    record Entry(String canonical, String spelling, String weight) {
    }

    @Property(tries = 200)
    void everySpellingBecomesCanonicalAndEverythingElseIsKept(@ForAll("entries") List<Entry> entries) {
        String json = document(entries, Entry::spelling);

        EnumNormalization result = EnumNormalizer.normalize(json, PALETTE);

        assertThat(result.json()).isEqualTo(document(entries, Entry::canonical));
        assertThat(EnumNormalizer.normalize(result.json(), PALETTE).json()).isSameAs(result.json());
    }

    private static String document(List<Entry> entries, java.util.function.Function<Entry, String> colour) {
        return entries.stream()
                .map(entry -> "{\"colour\": \"" + colour.apply(entry) + "\", \"weight\": " + entry.weight() + "}")
                .collect(Collectors.joining(", ", "{\"colours\": [", "]}"));
    }

    @Provide
    Arbitrary<List<Entry>> entries() {
        Arbitrary<Entry> entry = Combinators.combine(Arbitraries.of(COLOURS), Arbitraries.of(true, false).list()
                        .ofSize(12), Arbitraries.of("", " ", "  ", "\\t"), Arbitraries.of("", " "),
                Arbitraries.of("1.10", "1e2", "-0.5E-3", "12345678901234567890", "0"))
                .as((canonical, upper, before, after, weight) ->
                        new Entry(canonical, before + recase(canonical, upper) + after, weight));
        return entry.list().ofMaxSize(6);
    }

    private static String recase(String value, List<Boolean> upper) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length(); i++) {
            String c = String.valueOf(value.charAt(i));
            out.append(upper.get(i % upper.size()) ? c.toUpperCase(Locale.ROOT) : c.toLowerCase(Locale.ROOT));
        }
        return out.toString();
    }
}
