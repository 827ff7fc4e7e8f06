import Graphics
