package dev.pagantic.orchestrate;

import dev.pagantic.context.Chunk;
import dev.pagantic.rerank.Candidate;
import java.util.Map;

/**
 * A candidate as it crosses plan steps: a retrieved chunk, a reranked item, a generated answer. The unified form of
 * the context layer's {@link Chunk}, the rerank layer's {@link Candidate} and this layer's {@link RerankCandidate},
 * with conversions both ways; nothing is lost in a round trip.
 *
 * <p>What {@link #score()} means depends on who produced it: a retrieval score (BM25, cosine similarity) for a
 * retrieved chunk, a relevance score for a reranked candidate, a vote share for a voting candidate. Compare scores only
 * between candidates from the same producer.
 *
 * @param content  the text
 * @param source   where the content comes from; may be empty
 * @param score    the producer's score, higher is better; a number, never NaN
 * @param metadata anything else worth carrying; an immutable copy, in the given order, with no null keys or values
 */
public record CandidateIR(String content, String source, double score, Map<String, Object> metadata) {

    /** Checks the fields and copies the metadata; {@code CONFIG_INVALID} for nulls or a NaN score. */
    public CandidateIR {
        PlanChecks.present(content, "candidate content");
        PlanChecks.present(source, "candidate source");
        PlanChecks.score(score, "candidate");
        metadata = PlanChecks.metadata(metadata, "candidate", source);
    }

    /** A candidate with the given score and no metadata. */
    public static CandidateIR of(String content, String source, double score) {
        return new CandidateIR(content, source, score, Map.of());
    }

    /** The candidate for a retrieved chunk: same content, source, score and metadata. */
    public static CandidateIR from(Chunk chunk) {
        PlanChecks.present(chunk, "chunk");
        return new CandidateIR(chunk.content(), chunk.source(), chunk.score(), chunk.metadata());
    }

    /** The candidate for a rerank-layer candidate: same content, source, score and metadata. */
    public static CandidateIR from(Candidate candidate) {
        PlanChecks.present(candidate, "candidate");
        return new CandidateIR(candidate.content(), candidate.source(), candidate.score(), candidate.metadata());
    }

    /** The candidate for a plan-level rerank candidate: same content, source, score and metadata. */
    public static CandidateIR from(RerankCandidate candidate) {
        PlanChecks.present(candidate, "candidate");
        return new CandidateIR(candidate.content(), candidate.source(), candidate.score(), candidate.metadata());
    }

    /** This candidate with another score. */
    public CandidateIR withScore(double newScore) {
        return new CandidateIR(content, source, newScore, metadata);
    }

    /** This candidate as a context-layer chunk. */
    public Chunk toChunk() {
        return new Chunk(content, source, score, metadata);
    }

    /** This candidate as a rerank-layer candidate. */
    public Candidate toCandidate() {
        return new Candidate(content, score, source, metadata);
    }

    /** This candidate as a plan-level rerank candidate. */
    public RerankCandidate toRerankCandidate() {
        return new RerankCandidate(content, score, source, metadata);
    }
}
