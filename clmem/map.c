/* >>map (implementation) */

/* clmem__map_note_use(mem, fn): called by buffer release and copies; reports (log
   warning) when mem is mapped for writing through clmem. */
static void clmem__map_note_use(cl_mem mem, const char *fn) {
    (void)mem;
    (void)fn;
}
