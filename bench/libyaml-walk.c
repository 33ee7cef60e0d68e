/* `make bench`'s floor for loading big target files: libyaml alone reading a file and walking every
 * parse event (no tree, no Swift). `apicli list`/`validate` of the same 10,000-target file is measured
 * against it (goal <= 1.5x). Prints the event count; exit 1 on a parse error, 2 on a bad argument.
 *
 *   cc -O2 -o bench/out/libyaml-walk bench/libyaml-walk.c $(pkg-config --cflags --libs yaml-0.1)
 *   bench/out/libyaml-walk FILE.yaml
 */
#include <stdio.h>
#include <yaml.h>

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: libyaml-walk FILE.yaml\n"); return 2; }
  FILE *f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 2; }
  yaml_parser_t parser;
  yaml_event_t event;
  unsigned long events = 0, scalars = 0;
  if (!yaml_parser_initialize(&parser)) { fclose(f); return 1; }
  yaml_parser_set_input_file(&parser, f);
  int done = 0, rc = 0;
  while (!done) {
    if (!yaml_parser_parse(&parser, &event)) {
      fprintf(stderr, "%s:%lu:%lu: %s\n", argv[1], (unsigned long)parser.problem_mark.line + 1,
              (unsigned long)parser.problem_mark.column + 1, parser.problem ? parser.problem : "parse error");
      rc = 1;
      break;
    }
    events++;
    if (event.type == YAML_SCALAR_EVENT) scalars++;
    done = event.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&event);
  }
  yaml_parser_delete(&parser);
  fclose(f);
  printf("%lu events, %lu scalars\n", events, scalars);
  return rc;
}
