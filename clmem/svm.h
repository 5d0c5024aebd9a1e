/* >>svm: shared virtual memory (PyOpenCL's SVMPointer, SVM, SVMAllocation, SVMMap) */

#ifdef __cplusplus
extern "C" {
#endif

/** An SVM pointer with its size (PyOpenCL's SVMPointer and SVM tag). */
typedef struct clmem_svm {
    void *ptr;       /* the SVM (or, with fine-grain system SVM, host) pointer */
    size_t size;     /* bytes reachable from ptr; 0 when unknown */
} clmem_svm;

#ifdef __cplusplus
}
#endif
