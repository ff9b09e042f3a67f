package dev.pagantic.core;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class IdGeneratorTest {

    @Test
    void randomIdsAreVersionFourUuidsOfTheIetfVariant() {
        IdGenerator ids = IdGenerator.random();

        for (int i = 0; i < 1_000; i++) {
            String id = ids.nextId();
            UUID uuid = UUID.fromString(id);
            assertThat(uuid.toString()).isEqualTo(id);
            assertThat(uuid.version()).isEqualTo(4);
            assertThat(uuid.variant()).isEqualTo(2);
        }
    }

    @Test
    void randomIdsDoNotRepeat() {
        IdGenerator ids = IdGenerator.random();
        Set<String> seen = new HashSet<>();

        for (int i = 0; i < 100_000; i++) {
            assertThat(seen.add(ids.nextId())).isTrue();
        }
    }

    @Test
    void sequentialIdsCountUpWithTheirPrefix() {
        IdGenerator ids = IdGenerator.sequential("req-");

        assertThat(ids.nextId()).isEqualTo("req-1");
        assertThat(ids.nextId()).isEqualTo("req-2");
    }
}
