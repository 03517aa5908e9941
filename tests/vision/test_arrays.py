"""OpenCV's results are narrowed to the pipeline's array types with a check, not a cast."""

import numpy as np
import pytest

from vision.arrays import as_contour, f32, u8


def test_a_result_of_the_expected_type_passes_as_it_is():
    a = np.zeros((4, 4), np.uint8)
    assert u8(a) is a
    assert as_contour(np.zeros((5, 1, 2), np.int64)).dtype == np.int64


@pytest.mark.parametrize(("narrow", "dtype"), [(u8, np.float32), (f32, np.uint8), (as_contour, np.float32)])
def test_a_result_of_another_type_is_a_type_error_naming_it(narrow, dtype):
    with pytest.raises(TypeError, match=np.dtype(dtype).name):
        narrow(np.zeros((3, 3), dtype))
