package dev.pagantic.orchestrate;

import dev.pagantic.rerank.Candidate;
import java.util.Map;

/**
 * A scored item for plan-level reranking: this layer's mirror of the rerank layer's {@link Candidate}, with the
 * specification's fields in its order. It is what a {@link CandidateReranker} takes (in a {@link RerankInput}) and
 * returns; the call site converts with {@link #from(Candidate)} and {@link #toCandidate()}.
 *
 * @param content  the text that is scored
 * @param score    the current score, higher is better; a number, never NaN
 * @param source   where the content comes from; may be empty
 * @param metadata anything else worth carrying; an immutable copy, in the given order, with no null keys or values
 */
public record RerankCandidate(String content, double score, String source, Map<String, Object> metadata) {

    /** Checks the fields and copies the metadata; {@code CONFIG_INVALID} for nulls or a NaN score. */
    public RerankCandidate {
        PlanChecks.present(content, "candidate content");
        PlanChecks.score(score, "candidate");
        PlanChecks.present(source, "candidate source");
        metadata = PlanChecks.metadata(metadata, "candidate", source);
    }

    /** A candidate with the given score and no metadata. */
    public static RerankCandidate of(String content, double score, String source) {
        return new RerankCandidate(content, score, source, Map.of());
    }

    /** The mirror of a rerank-layer candidate. */
    public static RerankCandidate from(Candidate candidate) {
        PlanChecks.present(candidate, "candidate");
        return new RerankCandidate(candidate.content(), candidate.score(), candidate.source(), candidate.metadata());
    }

    /** This candidate as a rerank-layer candidate. */
    public Candidate toCandidate() {
        return new Candidate(content, score, source, metadata);
    }

    /** This candidate with another score. */
    public RerankCandidate withScore(double newScore) {
        return new RerankCandidate(content, newScore, source, metadata);
    }
}
