package dev.georesolver.compat;

import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.geo.Direction;
import io.vertx.core.buffer.Buffer;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class ReplayRenderingsTest {

  private static final ReplayRenderings.Reply REPLY =
      new ReplayRenderings.Reply(new Outcome.NotFound(null), Rendered.json(200, Buffer.buffer("[]")));

  @Test
  @DisplayName("one stored answer is rendered once per direction and options, and so is an equal one read again from a store; a different answer is another")
  void renderedOncePerStoredAnswer() {
    ReplayRenderings<GoogleRequests.Options> r = new ReplayRenderings<>();
    AtomicInteger renders = new AtomicInteger();
    StoredAnswer stored = StoredAnswer.of(Results.result(Results.resolved("exact", "rooftop", false)));
    for (int i = 0; i < 3; i++) {
      r.get(stored, Direction.FORWARD, new GoogleRequests.Options("q"), () -> {
        renders.incrementAndGet();
        return REPLY;
      });
    }
    assertThat(renders).hasValue(1);
    r.get(stored, Direction.FORWARD, new GoogleRequests.Options("other question"), () -> {
      renders.incrementAndGet();
      return REPLY;
    });
    r.get(StoredAnswer.of(Results.result(Results.resolved("exact", "rooftop", false))), Direction.FORWARD, new GoogleRequests.Options("q"), () -> {
      renders.incrementAndGet();
      return REPLY;
    });
    assertThat(renders).as("an equal answer, another instance").hasValue(2);
    r.get(StoredAnswer.of(Results.result(Results.resolved("exact", "street", false))), Direction.FORWARD, new GoogleRequests.Options("q"), () -> {
      renders.incrementAndGet();
      return REPLY;
    });
    assertThat(renders).hasValue(3);
  }
  @Test
  @DisplayName("Nominatim's format and what an XML root repeats are part of the key: a replay never gets another format's or another question's body")
  void formatIsPartOfTheKey() {
    ReplayRenderings<NominatimRequests.Options> r = new ReplayRenderings<>();
    AtomicInteger renders = new AtomicInteger();
    StoredAnswer stored = StoredAnswer.of(Results.result(Results.resolved("exact", "rooftop", false)));
    NominatimRequests.Options xml = new NominatimRequests.Options(NominatimFormat.XML, false, 10, "q", List.of(),
        new NominatimRequests.XmlContext("q", "/search?q=q", ""));
    List<NominatimRequests.Options> distinct = List.of(
        new NominatimRequests.Options(NominatimFormat.JSONV2, false, 10, "q", List.of(), NominatimRequests.XmlContext.NONE),
        xml,
        new NominatimRequests.Options(NominatimFormat.XML, false, 10, "q", List.of(),
            new NominatimRequests.XmlContext("q", "http://other.example/search?q=q", "")),
        new NominatimRequests.Options(NominatimFormat.XML, false, 10, "q", List.of(7L),
            new NominatimRequests.XmlContext("q", "/search?q=q", "")));
    for (NominatimRequests.Options o : distinct) {
      r.get(stored, Direction.FORWARD, o, () -> {
        renders.incrementAndGet();
        return REPLY;
      });
    }
    assertThat(renders).hasValue(distinct.size());
    r.get(stored, Direction.FORWARD, new NominatimRequests.Options(NominatimFormat.XML, false, 10, "q", List.of(),
        new NominatimRequests.XmlContext("q", "/search?q=q", "")), () -> {
          renders.incrementAndGet();
          return REPLY;
        });
    assertThat(renders).as("equal options find the rendering").hasValue(distinct.size());
  }
}
