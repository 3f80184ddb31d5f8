#if canImport(Combine)
    @_exported public import Combine
#else
    @_exported public import OpenCombine
    @_exported public import OpenCombineDispatch
    @_exported public import OpenCombineFoundation
#endif
