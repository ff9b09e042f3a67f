package dev.pagantic.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.pagantic.core.Message;
import java.util.List;
import org.junit.jupiter.api.Test;

class WorkingMemoryTest {

    @Test
    void holdsTheTurnsArtefactsUntilTheTurnEnds() {
        WorkingMemory working = new WorkingMemory();
        working.addContext(List.of(Message.system("Relevant context:\n\n[1] (doc): text")));
        working.add(ArtifactKind.INTERMEDIATE_OUTPUT, Message.assistant("draft"));
        working.put("attempt", 2);

        assertThat(working.context()).containsExactly(Message.system("Relevant context:\n\n[1] (doc): text"));
        assertThat(working.messages(ArtifactKind.INTERMEDIATE_OUTPUT)).containsExactly(Message.assistant("draft"));
        assertThat(working.artifacts()).hasSize(2);
        assertThat(working.get("attempt", Integer.class)).contains(2);
        assertThat(working.get("attempt", String.class)).isEmpty();
        assertThat(working.turn()).isZero();

        working.endTurn();

        assertThat(working.isEmpty()).isTrue();
        assertThat(working.context()).isEmpty();
        assertThat(working.get("attempt")).isEmpty();
        assertThat(working.turn()).isEqualTo(1);
    }
}
