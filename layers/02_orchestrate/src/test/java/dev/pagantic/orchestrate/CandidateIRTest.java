package dev.pagantic.orchestrate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.context.Chunk;
import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.rerank.Candidate;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CandidateIRTest {

    private static Map<String, Object> metadata() {
        Map<String, Object> metadata = new LinkedHashMap<>();
        metadata.put("page", 3);
        metadata.put("author", "ada");
        return metadata;
    }

    @Test
    void aRetrievedChunkKeepsContentSourceScoreAndMetadata() {
        Chunk chunk = new Chunk("Interfaces are satisfied implicitly.", "go-spec.md", 2.5, metadata());

        CandidateIR candidate = CandidateIR.from(chunk);

        assertThat(candidate.content()).isEqualTo("Interfaces are satisfied implicitly.");
        assertThat(candidate.source()).isEqualTo("go-spec.md");
        assertThat(candidate.score()).isEqualTo(2.5);
        assertThat(candidate.metadata()).containsExactly(Map.entry("page", 3), Map.entry("author", "ada"));
        assertThat(candidate.toChunk()).isEqualTo(chunk);
    }

    @Test
    void aRerankLayerCandidateKeepsItsFieldsBothWays() {
        Candidate candidate = new Candidate("answer", 0.75, "model", metadata());

        CandidateIR ir = CandidateIR.from(candidate);

        assertThat(ir).isEqualTo(new CandidateIR("answer", "model", 0.75, metadata()));
        assertThat(ir.toCandidate()).isEqualTo(candidate);
    }

    @Test
    void aPlanLevelRerankCandidateKeepsItsFieldsBothWays() {
        RerankCandidate mirror = new RerankCandidate("text", 0.5, "doc", metadata());

        assertThat(CandidateIR.from(mirror).toRerankCandidate()).isEqualTo(mirror);
        assertThat(CandidateIR.from(mirror).source()).isEqualTo("doc");
    }

    @Test
    void withScoreChangesOnlyTheScore() {
        CandidateIR candidate = new CandidateIR("c", "s", 1.0, metadata());

        assertThat(candidate.withScore(0.2)).isEqualTo(new CandidateIR("c", "s", 0.2, metadata()));
    }

    @Test
    void metadataIsAnImmutableCopy() {
        Map<String, Object> metadata = metadata();
        CandidateIR candidate = new CandidateIR("c", "s", 0, metadata);
        metadata.put("later", true);

        assertThat(candidate.metadata()).doesNotContainKey("later");
        assertThatThrownBy(() -> candidate.metadata().put("x", 1)).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void aNanScoreNullFieldsOrNullMetadataEntriesAreRefused() {
        Map<String, Object> nullValue = new HashMap<>();
        nullValue.put("k", null);

        assertThatThrownBy(() -> CandidateIR.of("c", "s", Double.NaN))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> new CandidateIR("c", "s", 0, nullValue))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.details()).containsEntry("source", "s"));
        assertThatThrownBy(() -> CandidateIR.of(null, "s", 0)).isInstanceOf(PaganticException.class);
        assertThatThrownBy(() -> CandidateIR.from((Chunk) null)).isInstanceOf(PaganticException.class);
    }
}
