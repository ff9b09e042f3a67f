package dev.pagantic.orchestrate.multimodel;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.inference.Engine;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The engines multi-model modes pick from (seed 003's model selection): each named, with a capability weight, prices
 * and a health flag. A mode picks an engine by explicit id, or by a minimum weight:
 * <ul>
 *   <li>{@link #primary}: the first healthy entry (catalogue order) whose weight reaches the floor;</li>
 *   <li>{@link #review}: the healthy entry with the highest weight reaching the floor (the seed's
 *       {@code high_confidence} policy for critics and judges; ties go to the earlier entry);</li>
 *   <li>{@link #voters}: the named entries, or the healthy entries reaching the floor, in catalogue order.</li>
 * </ul>
 * Immutable and thread-safe. Failures are {@code CONFIG_INVALID}.
 */
public final class EngineCatalogue {

    private final List<EngineEntry> entries;

    private EngineCatalogue(List<EngineEntry> entries) {
        this.entries = List.copyOf(entries);
    }

    /** Starts a catalogue. */
    public static Builder builder() {
        return new Builder();
    }

    /** The entries, in the order they were added. */
    public List<EngineEntry> entries() {
        return entries;
    }

    /** The entry with this id, healthy or not. */
    public Optional<EngineEntry> find(String id) {
        return entries.stream().filter(e -> e.id().equals(id)).findFirst();
    }

    /**
     * The healthy entry with this id.
     *
     * @throws PaganticException {@code CONFIG_INVALID} for an unknown or unhealthy id
     */
    public EngineEntry require(String id) {
        EngineEntry entry = find(id).orElseThrow(() -> invalid("no engine '" + id + "' in the catalogue "
                + entries.stream().map(EngineEntry::id).toList()));
        if (!entry.healthy()) {
            throw invalid("engine '" + id + "' is marked unhealthy");
        }
        return entry;
    }

    /** The primary engine: the one named, else the first healthy entry whose weight is at least {@code minWeight}. */
    public EngineEntry primary(Optional<String> id, int minWeight) {
        return id.map(this::require).orElseGet(() -> eligible(minWeight).stream().findFirst()
                .orElseThrow(() -> noneEligible(minWeight)));
    }

    /** The review (critic, judge) engine: the one named, else the healthy entry of highest weight (at least the floor). */
    public EngineEntry review(Optional<String> id, int minWeight) {
        return id.map(this::require).orElseGet(() -> eligible(minWeight).stream()
                .max(Comparator.comparingInt(EngineEntry::weight).thenComparing(e -> -entries.indexOf(e)))
                .orElseThrow(() -> noneEligible(minWeight)));
    }

    /**
     * The voters: the named entries (distinct, healthy), else up to {@code max} healthy entries reaching the floor.
     */
    public List<EngineEntry> voters(List<String> ids, int minWeight, int max) {
        if (!ids.isEmpty()) {
            Set<String> distinct = new LinkedHashSet<>(ids);
            if (distinct.size() != ids.size()) {
                throw invalid("a voter is named twice: " + ids);
            }
            return ids.stream().map(this::require).toList();
        }
        List<EngineEntry> eligible = eligible(minWeight);
        if (eligible.isEmpty()) {
            throw noneEligible(minWeight);
        }
        return eligible.subList(0, Math.min(max, eligible.size()));
    }

    private List<EngineEntry> eligible(int minWeight) {
        return entries.stream().filter(e -> e.healthy() && e.weight() >= minWeight).toList();
    }

    private static PaganticException noneEligible(int minWeight) {
        return invalid("no healthy engine in the catalogue has a weight of at least " + minWeight);
    }

    private static PaganticException invalid(String message) {
        return PaganticException.of(ErrorCode.CONFIG_INVALID, message);
    }

    /** Collects entries; {@link #build()} needs at least one and distinct ids. */
    public static final class Builder {
        private final List<EngineEntry> entries = new ArrayList<>();

        private Builder() {
        }

        /** Adds an entry. */
        public Builder add(EngineEntry entry) {
            if (entry == null) {
                throw invalid("an engine entry must not be null");
            }
            entries.add(entry);
            return this;
        }

        /** Adds a healthy, free entry. */
        public Builder add(String id, Engine engine, int weight) {
            return add(EngineEntry.of(id, engine, weight));
        }

        /** Adds a healthy entry with prices per 1000 prompt and generated tokens. */
        public Builder add(String id, Engine engine, int weight, BigDecimal promptCostPer1k,
                           BigDecimal completionCostPer1k) {
            return add(new EngineEntry(id, engine, weight, promptCostPer1k, completionCostPer1k, true));
        }

        /**
         * The catalogue.
         *
         * @throws PaganticException {@code CONFIG_INVALID} when empty or when two entries share an id
         */
        public EngineCatalogue build() {
            if (entries.isEmpty()) {
                throw invalid("an engine catalogue needs at least one engine");
            }
            Set<String> ids = new LinkedHashSet<>();
            for (EngineEntry entry : entries) {
                if (!ids.add(entry.id())) {
                    throw invalid("engine id '" + entry.id() + "' is in the catalogue twice");
                }
            }
            return new EngineCatalogue(entries);
        }
    }
}
