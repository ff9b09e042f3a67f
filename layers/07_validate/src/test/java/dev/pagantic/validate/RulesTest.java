package dev.pagantic.validate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.pagantic.core.ErrorCode;
import dev.pagantic.core.PaganticException;
import org.junit.jupiter.api.Test;

class RulesTest {

    @Test
    void maxLengthCountsCodePointsNotUtf16Units() {
        Rule rule = Rules.maxLength(3);
        assertThat(rule.check("😀😀😀").passed()).isTrue(); // 6 UTF-16 units, 3 code points
        assertThat(rule.check("😀😀😀😀").reason()).isEqualTo("4 characters, more than the maximum of 3");
    }

    @Test
    void minLengthAndNotBlank() {
        assertThat(Rules.minLength(2).check("a").reason()).isEqualTo("1 characters, fewer than the minimum of 2");
        assertThat(Rules.minLength(2).check("ab").passed()).isTrue();
        assertThat(Rules.notBlank().check(" \n").passed()).isFalse();
    }

    @Test
    void mustBeJsonAcceptsExactlyOneJsonValue() {
        Rule json = Rules.mustBeJson();
        assertThat(json.check("{\"a\": [1, 2, null]}").passed()).isTrue();
        assertThat(json.check("  [true]\n").passed()).isTrue();
        assertThat(json.check("42").passed()).isTrue();

        assertThat(json.check("{\"a\": 1} trailing").passed()).isFalse();
        assertThat(json.check("```json\n{\"a\": 1}\n```").passed()).isFalse();
        assertThat(json.check("{\"a\": }").reason()).startsWith("not JSON: ");
        assertThat(json.check("").reason()).isEqualTo("not JSON: the text is empty");
    }

    @Test
    void mustBeJsonObjectRefusesOtherJsonValues() {
        Rule object = Rules.mustBeJsonObject();
        assertThat(object.check("{}").passed()).isTrue();
        assertThat(object.check("[1]").reason()).isEqualTo("JSON, but not an object");
        assertThat(object.check("{").passed()).isFalse();
    }

    @Test
    void negativeBoundsAreConfigurationErrors() {
        assertThatThrownBy(() -> Rules.maxLength(-1))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
        assertThatThrownBy(() -> Rules.minLength(-1))
                .isInstanceOfSatisfying(PaganticException.class,
                        e -> assertThat(e.code()).isEqualTo(ErrorCode.CONFIG_INVALID));
    }
}
