package dev.pagantic.types;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonValue;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.OffsetTime;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;

/** The Java types the tests generate schemas for, as an application would write them. */
final class TestTypes {

    private TestTypes() {
    }

    /** Any annotation of this simple name marks a nullable property (JSpecify, Jakarta, JSR 305 or one's own). */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.FIELD, ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
    @interface Nullable {
    }

    enum Priority { LOW, HIGH;

        @Override
        public String toString() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    enum Code { @JsonProperty("a-1") A, B }

    enum Level { ONE(1), TWO(2);

        private final int value;

        Level(int value) {
            this.value = value;
        }

        @JsonValue
        int value() {
            return value;
        }
    }

    record LineItem(@JsonPropertyDescription("What was bought") String product, int quantity, BigDecimal price) {
    }

    @JsonClassDescription("An invoice as issued")
    record Invoice(String number, LocalDate issued, Priority priority, List<LineItem> items, Optional<String> note,
                   Map<String, Integer> counts, UUID id, Set<String> tags) {
    }

    record Contact(String name, @Nullable String email, OptionalInt age) {
    }

    @JsonInclude(JsonInclude.Include.NON_ABSENT)
    record SparseContact(String name, Optional<String> email) {
    }

    record Renamed(@JsonProperty("full_name") String fullName, @JsonIgnore String secret, Code code, Level level) {
    }

    record Node(String name, List<Node> children) {
    }

    record Route(LineItem from, LineItem to) {
    }

    record Times(LocalDate date, LocalTime time, LocalDateTime local, OffsetDateTime offset, Instant instant,
                 ZonedDateTime zoned, OffsetTime offsetTime, Duration duration) {
    }

    record Scalars(BigDecimal amount, BigInteger count, char initial, byte[] bytes, long big, double ratio,
                   boolean flag, Object anything) {
    }
}
