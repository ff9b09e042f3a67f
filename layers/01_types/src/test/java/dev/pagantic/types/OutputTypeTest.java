package dev.pagantic.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import dev.pagantic.core.Schema;
import dev.pagantic.types.TestTypes.Contact;
import dev.pagantic.types.TestTypes.Invoice;
import dev.pagantic.types.TestTypes.LineItem;
import dev.pagantic.types.TestTypes.Node;
import dev.pagantic.types.TestTypes.Priority;
import dev.pagantic.types.TestTypes.Renamed;
import dev.pagantic.types.TestTypes.Route;
import dev.pagantic.types.TestTypes.Scalars;
import dev.pagantic.types.TestTypes.Times;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import tools.jackson.core.type.TypeReference;

class OutputTypeTest {

    private static final OutputType<LineItem> LINE_ITEM = OutputType.of(LineItem.class);

    private static PaganticException failure(Runnable call) {
        return (PaganticException) org.assertj.core.api.Assertions.catchThrowable(call::run);
    }

    @Test
    void theParsedOutputConvertsToTheRecord() {
        Map<String, Object> parsed = Map.of("product", "pen", "quantity", 2, "price", new BigDecimal("1.50"));

        assertThat(LINE_ITEM.convert(parsed)).isEqualTo(new LineItem("pen", 2, new BigDecimal("1.50")));
        assertThat(LINE_ITEM.parse("{\"product\":\"ink\",\"quantity\":1,\"price\":3}"))
                .isEqualTo(new LineItem("ink", 1, new BigDecimal("3")));
    }

    @Test
    void theSchemaIsTheGeneratedDocumentAsTheSchemaReaderReadsIt() {
        assertThat(LINE_ITEM.schema()).isEqualTo(Schema.fromJsonSchema(LINE_ITEM.jsonSchema()));
        assertThat(LINE_ITEM.schema().toJsonSchema().get("required")).isEqualTo(List.of("product", "quantity", "price"));
        assertThat(LINE_ITEM.javaType().getRawClass()).isEqualTo(LineItem.class);
    }

    @Test
    void aGenericTypeConvertsItsArgumentsToo() {
        OutputType<List<LineItem>> items = OutputType.of(new TypeReference<List<LineItem>>() {
        });

        assertThat(items.parse("[{\"product\":\"pen\",\"quantity\":2,\"price\":1.5}]"))
                .containsExactly(new LineItem("pen", 2, new BigDecimal("1.5")));
        assertThat(items.schema().types()).containsExactly("array");
    }

    @Test
    void aValueOfTheWrongTypeIsARetryableSchemaFailureWithItsPointer() {
        PaganticException failure = failure(() -> LINE_ITEM.parse(
                "{\"product\":\"pen\",\"quantity\":\"many\",\"price\":1}"));

        assertThat(failure.code()).isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
        assertThat(failure.retryable()).isTrue();
        assertThat(failure.details()).containsEntry("pointer", "/quantity");
        assertThat(failure.getMessage()).contains("LineItem").contains("'/quantity'");
    }

    @Test
    void aNumberTooLargeForTheComponentIsASchemaFailureNotAnOverflow() {
        PaganticException failure = failure(() -> LINE_ITEM.parse(
                "{\"product\":\"pen\",\"quantity\":99999999999,\"price\":1}"));

        assertThat(failure.code()).isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
        assertThat(failure.details()).containsEntry("pointer", "/quantity");
    }

    @Test
    void nullForAPrimitiveOrAnUnknownPropertyIsASchemaFailure() {
        assertThat(failure(() -> LINE_ITEM.parse("{\"product\":\"pen\",\"quantity\":null,\"price\":1}")).code())
                .isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
        assertThat(failure(() -> LINE_ITEM.parse(
                "{\"product\":\"pen\",\"quantity\":1,\"price\":1,\"colour\":\"red\"}")).details())
                .containsEntry("pointer", "/colour");
    }

    @Test
    void textThatIsNotJsonIsAJsonFailure() {
        assertThat(failure(() -> LINE_ITEM.parse("{\"product\": ")).code())
                .isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
        assertThat(failure(() -> LINE_ITEM.parse("{} {}")).code()).isEqualTo(ErrorCode.CONSTRAINT_JSON_INVALID);
    }

    @Test
    void aNullOutputIsASchemaFailureForAPrimitiveAndNullForAReference() {
        assertThat(LINE_ITEM.convert(null)).isNull();
        assertThat(failure(() -> OutputType.of(int.class).convert(null)).code())
                .isEqualTo(ErrorCode.CONSTRAINT_SCHEMA_INVALID);
    }

    @ParameterizedTest
    @ValueSource(classes = {Invoice.class, Contact.class, Node.class, Route.class, Times.class, Scalars.class,
        Renamed.class})
    void everyGeneratedSchemaIsAcceptedByTheSchemaReader(Class<?> type) {
        OutputType<?> output = OutputType.of(type);

        assertThat(output.schema()).isEqualTo(Schema.fromJsonSchema(output.jsonSchema()));
    }

    @Test
    void anInvoiceWithNestedItemsAnOptionalNoteAndDatesRoundTrips() {
        OutputType<Invoice> invoices = OutputType.of(Invoice.class);
        Invoice invoice = new Invoice("INV-1", LocalDate.of(2026, 3, 1), Priority.HIGH,
                List.of(new LineItem("pen", 2, new BigDecimal("1.5"))), Optional.empty(), Map.of("pens", 2),
                UUID.fromString("2f1b6d1e-1111-4a7b-9c2d-0123456789ab"), Set.of("office"));

        String written = TypeSchemaGenerator.defaultMapper().writeValueAsString(invoice);

        assertThat(invoices.parse(written)).isEqualTo(invoice);
        assertThat(invoices.parse(written.replace("\"note\":null", "\"note\":\"paid\""))).extracting(Invoice::note)
                .isEqualTo(Optional.of("paid"));
        assertThat(OutputType.of(Contact.class).parse("{\"name\":\"Ada\",\"email\":null,\"age\":null}"))
                .isEqualTo(new Contact("Ada", null, OptionalInt.empty()));
    }

    @Test
    void aConversionFailureDoesNotLeakJacksonsException() {
        assertThatThrownBy(() -> LINE_ITEM.convert(List.of(1, 2))).isInstanceOf(PaganticException.class)
                .hasCauseInstanceOf(tools.jackson.core.JacksonException.class);
    }
}
